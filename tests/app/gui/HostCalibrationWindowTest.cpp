// The first prediction on `host` is calibrated in the app: with an empty config directory the
// window calibrates in the background at start and moves the document onto the measured target;
// a stale calibration prompts Recalibrate; a corrupt one is a warning and is measured again. The
// status-bar label says which calibration the target uses. Each test has its own config folder
// and turns the start-up calibration on (main.cpp turns it off for every other test).

#include "calibrate/MachineSpeed.h"
#include "controllers/HostCalibrationController.h"
#include "document/ScheduleDocument.h"
#include "panels/DiagnosticsPanel.h"
#include "shell/MainWindow.h"
#include "support/GuiTestSupport.h"
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
#include <chrono>
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
    // Which machine, in the tooltip: the label stays short enough for the status bar.
    EXPECT_FALSE(calibration().label()->text().contains(QStringLiteral(" cores)")));
    EXPECT_TRUE(calibration().label()->toolTip().contains(QStringLiteral(" cores)")))
        << calibration().label()->toolTip().toStdString();
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

// A calibration whose speed check took four times as long as this machine takes now (as if made
// on a machine 4x slower): after a run, the check timed again says so in the label and prompts
// Recalibrate. Without checks (calibrations made before them) nothing is timed.
TEST_F(HostCalibrationWindowTest, SpeedChangedSinceCalibrationPromptsRecalibrate) {
    const std::string now = target::formatUtc(std::chrono::system_clock::now());
    auto host = target::parseTarget(thisMachinesCalibration(now), "host.json");
    ASSERT_TRUE(host.ok());
    auto check = calibrate::SpeedCheck::prepare(*host);
    ASSERT_TRUE(check.ok()) << check.diagnostics().front().message;
    auto times = check->measure();
    ASSERT_TRUE(times.ok()) << times.diagnostics().front().message;
    for (auto& [cores, ns] : *times)
        ns *= 4;
    host->calibration->speedChecks = *times;
    writeCalibration(target::targetToJson(*host));
    openWindow();
    ASSERT_TRUE(document().target() && document().target()->calibrated);
    EXPECT_EQ(calibration().stalePrompt(), nullptr); // a current calibration

    QSignalSpy checked(&calibration(), &HostCalibrationController::speedChecked);
    calibration().checkSpeed(); // what a finished run on host does
    ASSERT_TRUE(checked.wait(kCalibrationTimeoutMs) || checked.count() == 1);
    const QString speed = checked.at(0).at(0).toString();
    EXPECT_TRUE(speed.contains(QStringLiteral("x on one core"))) << speed.toStdString();
    EXPECT_TRUE(calibration().label()->text().contains(QStringLiteral("; speed ") + speed))
        << calibration().label()->text().toStdString();
    ASSERT_NE(calibration().stalePrompt(), nullptr);
    EXPECT_TRUE(calibration().stalePrompt()->text().contains(
        QStringLiteral("another speed than when it was calibrated after the last run")))
        << calibration().stalePrompt()->text().toStdString();
}

TEST_F(HostCalibrationWindowTest, CalibrationWithoutSpeedChecksTimesNone) {
    writeCalibration(thisMachinesCalibration(target::formatUtc(std::chrono::system_clock::now())));
    openWindow();
    QSignalSpy checked(&calibration(), &HostCalibrationController::speedChecked);
    calibration().checkSpeed();
    EXPECT_FALSE(checked.wait(500));
    EXPECT_EQ(calibration().stalePrompt(), nullptr);
    EXPECT_FALSE(calibration().label()->text().contains(QStringLiteral("speed")));
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
