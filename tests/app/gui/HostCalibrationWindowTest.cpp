// The first prediction on `host` is calibrated in the app: with an empty config directory the
// window calibrates in the background at start and moves the document onto the measured target;
// a stale calibration prompts Recalibrate; a corrupt one is a warning and is measured again. The
// status-bar label says which calibration the target uses. Each test has its own config folder
// and turns the start-up calibration on (main.cpp turns it off for every other test).

#include "panels/DiagnosticsPanel.h"
#include "support/GuiTestSupport.h"
#include "controllers/HostCalibrationController.h"
#include "shell/MainWindow.h"
#include "document/ScheduleDocument.h"
#include "support/WindowTestSupport.h"
#include "target/CalibratedHost.h"
#include "target/TargetLoader.h"
#include "target/TargetWriter.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

constexpr int kCalibrationTimeoutMs = 120'000; // --quick's programs, on a loaded machine

class HostCalibrationWindowTest : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(m_config.isValid());
        m_oldConfig = qgetenv("XDG_CONFIG_HOME");
        qputenv("XDG_CONFIG_HOME", m_config.path().toLocal8Bit());
        qunsetenv("STRATA_NO_CALIBRATE");
        m_file = QString::fromStdString(target::defaultCalibratedHostFile());
    }
    void TearDown() override {
        m_window.reset();
        qputenv("XDG_CONFIG_HOME", m_oldConfig);
        qputenv("STRATA_NO_CALIBRATE", "1");
    }

    // A window whose start-up calibration uses --quick's programs, shown.
    void openWindow() {
        m_window = std::make_unique<MainWindow>();
        m_window->hostCalibration()->setQuick(true);
        m_window->resize(1200, 800);
        m_window->show();
    }
    HostCalibrationController& calibration() const { return *m_window->hostCalibration(); }
    ScheduleDocument& document() const { return *m_window->scheduleDocument(); }

    void writeCalibration(const std::string& json) const {
        QDir().mkpath(QFileInfo(m_file).absolutePath());
        QFile file(m_file);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(json.data(), static_cast<qint64>(json.size()));
    }
    // A calibrated host of this machine (its CPU and core count) made at `when`.
    std::string thisMachinesCalibration(const std::string& when) const {
        auto preset = target::resolveTarget(target::kUncalibratedHost);
        EXPECT_TRUE(preset.ok());
        target::Target host = *preset;
        host.calibrated = true;
        const target::HostFacts here = target::probeHost();
        host.calibration = target::CalibrationStamp{here.cpuModel, here.cpus, when};
        return target::targetToJson(host);
    }

    QTemporaryDir m_config;
    QByteArray m_oldConfig;
    QString m_file;
    std::unique_ptr<MainWindow> m_window;
};

TEST_F(HostCalibrationWindowTest, FirstRunCalibratesInTheBackgroundAndUsesIt) {
    openWindow();
    QSignalSpy finished(&calibration(), &HostCalibrationController::finished);
    EXPECT_EQ(calibration().label()->text(), QStringLiteral("host: uncalibrated figures"));
    ASSERT_TRUE(finished.wait(kCalibrationTimeoutMs) || finished.count() == 1);
    ASSERT_EQ(finished.count(), 1);
    EXPECT_TRUE(finished.at(0).at(0).toBool());
    EXPECT_TRUE(QFile::exists(m_file));
    // The document moved onto the measured figures, and the label says when they were measured.
    ASSERT_TRUE(document().target());
    EXPECT_TRUE(document().target()->calibrated);
    EXPECT_EQ(QString::fromStdString(document().target()->source), m_file);
    EXPECT_TRUE(calibration().label()->text().startsWith(QStringLiteral("host: calibrated 20")))
        << calibration().label()->text().toStdString();
    EXPECT_EQ(calibration().stalePrompt(), nullptr);
}

TEST_F(HostCalibrationWindowTest, StaleCalibrationPromptsRecalibrate) {
    writeCalibration(thisMachinesCalibration("2020-01-01T00:00:00Z"));
    openWindow();
    ASSERT_TRUE(QTest::qWaitFor([&] { return calibration().stalePrompt() != nullptr; }, 10'000));
    EXPECT_FALSE(calibration().isRunning()); // a stale calibration is used, not replaced unasked
    EXPECT_TRUE(document().target()->calibrated);
    EXPECT_TRUE(calibration().stalePrompt()->text().contains(QStringLiteral("days old")))
        << calibration().stalePrompt()->text().toStdString();
    EXPECT_TRUE(
        calibration().label()->text().startsWith(QStringLiteral("host: calibrated 2020-01-01")))
        << calibration().label()->text().toStdString();

    QSignalSpy finished(&calibration(), &HostCalibrationController::finished);
    auto* again =
        calibration().stalePrompt()->findChild<QPushButton*>(QStringLiteral("recalibrateButton"));
    ASSERT_NE(again, nullptr);
    again->click();
    ASSERT_TRUE(finished.wait(kCalibrationTimeoutMs) || finished.count() == 1);
    EXPECT_TRUE(finished.at(0).at(0).toBool());
    auto saved = target::loadTargetFile(m_file.toStdString());
    ASSERT_TRUE(saved.ok());
    ASSERT_TRUE(saved->calibration.has_value());
    EXPECT_NE(saved->calibration->calibratedAt, "2020-01-01T00:00:00Z");
    EXPECT_FALSE(calibration().label()->text().contains(QStringLiteral("2020-01-01")));
}

TEST_F(HostCalibrationWindowTest, CorruptCalibrationIsAWarningAndIsMeasuredAgain) {
    writeCalibration("{\"strata_target\": 1, \"name\": \"ho");
    openWindow();
    // The document could not load it and started on the preset; the window measures again.
    QSignalSpy finished(&calibration(), &HostCalibrationController::finished);
    ASSERT_TRUE(finished.wait(kCalibrationTimeoutMs) || finished.count() == 1);
    EXPECT_TRUE(finished.at(0).at(0).toBool());
    EXPECT_TRUE(
        test::diagnosticsMention(*m_window->diagnosticsPanel(), QStringLiteral("does not load")));
    EXPECT_EQ(document().targetKey(), QStringLiteral("host"));
    EXPECT_TRUE(document().target()->calibrated);
}

TEST_F(HostCalibrationWindowTest, RecalibrateIsInTheBuildMenuAndOffWithTheVariable) {
    qputenv("STRATA_NO_CALIBRATE", "1");
    openWindow();
    // The start-up check is a zero-delay call: deliver it, then it has decided.
    QCoreApplication::sendPostedEvents();
    EXPECT_FALSE(calibration().isRunning());
    EXPECT_FALSE(QFile::exists(m_file));
    auto* action = m_window->findChild<QAction*>(QStringLiteral("recalibrateHostAction"));
    ASSERT_NE(action, nullptr);
    EXPECT_TRUE(action->isEnabled());
}

} // namespace
} // namespace strata::gui
