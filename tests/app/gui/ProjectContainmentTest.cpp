// Project containment in the window (docs/PROJECTS.md): a project naming a model outside its
// folder asks before loading it. The real message box is answered by the test: Cancel leaves
// the window as it was with an error naming the field; Load Anyway opens the project and keeps
// the finding as a warning. The recovery file (written by the app itself) is not asked about.

#include "panels/DiagnosticsPanel.h"
#include "support/GuiTestSupport.h"
#include "shell/MainWindow.h"
#include "controllers/ProjectController.h"
#include "document/ScheduleDocument.h"
#include "project/Project.h"
#include "support/WindowFixture.h"

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidgetItem>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

class ProjectContainmentTest : public test::WindowFixture {
  protected:
    ProjectContainmentTest() : WindowFixture({1200, 800}) {}

    void SetUp() override {
        ASSERT_TRUE(m_dir.isValid());
        WindowFixture::SetUp();
        m_window->projectController()->setRecoveryPath(
            m_dir.filePath(QStringLiteral("recovery.strata")));
    }

    // A project in the temporary folder whose model is the committed sample, outside it.
    QString writeProjectPointingOutside() {
        project::Project project;
        project.modelPath = test::samplePath("resnet_tiny.onnx").toStdString();
        project.target = "host";
        project.strategy = "fuse-max";
        const QString path = m_dir.filePath(QStringLiteral("handed-over.strata"));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(
            QByteArray::fromStdString(project::projectToJson(project, m_dir.path().toStdString())));
        return path;
    }

    // Clicks the button whose text is `button` on the message box once it is shown (modal: the
    // click must come from the event loop it runs); `seen` gets the box's text.
    static void answerMessageBox(const QString& button, QString* seen) {
        auto* poll = new QTimer(qApp);
        QObject::connect(poll, &QTimer::timeout, poll, [poll, button, seen] {
            auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
            if (!box)
                return;
            *seen = box->text();
            for (QAbstractButton* b : box->buttons())
                if (b->text() == button) {
                    b->click();
                    poll->deleteLater();
                    return;
                }
        });
        poll->start(20);
    }

    // Opens `path`; the projectOpened outcome, or nullopt when it never came.
    std::optional<bool> open(const QString& path) {
        QSignalSpy opened(m_window->projectController(), &ProjectController::projectOpened);
        m_window->openFile(path);
        if (!QTest::qWaitFor([&] { return opened.count() > 0; }, test::kSettleTimeoutMs))
            return std::nullopt;
        return opened.at(0).at(1).toBool();
    }

    // The Diagnostics dock's rows of `severity` whose text contains `text`.
    int rows(const QString& severity, const QString& text) const {
        const DiagnosticsPanel& panel = *m_window->diagnosticsPanel();
        int count = 0;
        for (int i = 0; i < panel.topLevelItemCount(); ++i) {
            const QTreeWidgetItem* item = panel.topLevelItem(i);
            if (item->text(DiagnosticsPanel::SeverityColumn) == severity &&
                item->text(DiagnosticsPanel::MessageColumn).contains(text))
                ++count;
        }
        return count;
    }

    QTemporaryDir m_dir;
};

TEST_F(ProjectContainmentTest, CancelLeavesTheWindowAsItWasWithAnError) {
    const QString path = writeProjectPointingOutside();
    ASSERT_FALSE(path.isEmpty());
    QString asked;
    answerMessageBox(QStringLiteral("Cancel"), &asked);
    const auto opened = open(path);
    ASSERT_TRUE(opened.has_value()) << "opening never finished";
    EXPECT_FALSE(*opened);
    EXPECT_TRUE(asked.contains(QStringLiteral("resnet_tiny.onnx"))) << asked.toStdString();
    EXPECT_TRUE(m_window->projectController()->refusedOutsideFiles());
    EXPECT_EQ(rows(QStringLiteral("error"), QStringLiteral("outside the project's folder")), 1);
    EXPECT_TRUE(m_window->currentFile().isEmpty());
    EXPECT_EQ(m_window->scheduleDocument()->graph(), nullptr);
}

TEST_F(ProjectContainmentTest, LoadAnywayOpensTheProjectWithAWarning) {
    const QString path = writeProjectPointingOutside();
    ASSERT_FALSE(path.isEmpty());
    QString asked;
    answerMessageBox(QStringLiteral("Load Anyway"), &asked);
    const auto opened = open(path);
    ASSERT_TRUE(opened.has_value()) << "opening never finished";
    EXPECT_TRUE(*opened);
    EXPECT_FALSE(asked.isEmpty());
    EXPECT_FALSE(m_window->projectController()->refusedOutsideFiles());
    EXPECT_EQ(m_window->currentFile(), test::samplePath("resnet_tiny.onnx"));
    EXPECT_EQ(rows(QStringLiteral("warning"), QStringLiteral("loaded anyway")), 1);
    EXPECT_EQ(rows(QStringLiteral("error"), QStringLiteral("outside the project's folder")), 0);
}

TEST_F(ProjectContainmentTest, TheRecoveryFileIsNotAskedAbout) {
    const QString project = writeProjectPointingOutside();
    ASSERT_FALSE(project.isEmpty());
    ASSERT_TRUE(QFile::copy(project, m_window->projectController()->recoveryPath()));
    bool asked = false;
    m_window->projectController()->setOutsideFilesHandler([&](const QString&) {
        asked = true;
        return false;
    });
    QSignalSpy opened(m_window->projectController(), &ProjectController::projectOpened);
    ASSERT_TRUE(m_window->projectController()->restoreRecovery());
    ASSERT_TRUE(QTest::qWaitFor([&] { return opened.count() > 0; }, test::kSettleTimeoutMs));
    EXPECT_TRUE(opened.at(0).at(1).toBool());
    EXPECT_FALSE(asked);
}

} // namespace
} // namespace strata::gui
