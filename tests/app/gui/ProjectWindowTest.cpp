// Projects in the main window: an edited schedule saved as a project and opened in a new window
// comes back with its target, blocks and tab; a recovery file written before a simulated crash
// (the window destroyed without closing) restores the session in the next window, and a clean
// close removes it; a broken project file is refused with a diagnostic and the window stays
// usable; a project whose model moved asks where it is; one whose model changed says so.

#include "panels/DiagnosticsPanel.h"
#include "tabs/GraphTab.h"
#include "support/WindowFixture.h"
#include "shell/MainWindow.h"
#include "controllers/ProjectController.h"
#include "document/ScheduleDocument.h"
#include "project/Project.h"
#include "views/graph/GraphView.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeWidgetItem>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

namespace sch = strata::schedule;

class ProjectWindowTest : public test::ProjectWindowFixture {
  protected:
    static bool settle(MainWindow& window) { return test::settle(window); }

    static bool openModel(MainWindow& window, const QString& target) {
        return test::openModel(window, test::samplePath("resnet_tiny.onnx"), target);
    }

    // Opens a project file in `window`; true when it opened.
    static bool openProject(MainWindow& window, const QString& path) {
        return test::openProject(window, path);
    }

    // Splits the first block with two ops or more: an edited schedule.
    static bool edit(MainWindow& window) {
        ScheduleDocument& document = *window.scheduleDocument();
        for (const sch::Block& block : document.schedule()->blocks)
            if (block.ops.size() > 1)
                return document.split(block.ops[1]).applied() && settle(window);
        return false;
    }

    static bool hasError(const DiagnosticsPanel& panel, const QString& text) {
        for (int i = 0; i < panel.topLevelItemCount(); ++i)
            for (int c = 0; c < panel.columnCount(); ++c)
                if (panel.topLevelItem(i)->text(c).contains(text))
                    return true;
        return false;
    }
};

TEST_F(ProjectWindowTest, SaveThenOpenBringsTheSessionBack) {
    if (!openModel(*m_window, QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    ASSERT_TRUE(edit(*m_window));
    const sch::Schedule saved = *m_window->scheduleDocument()->schedule();
    m_window->showTab(QStringLiteral("ops"));
    const QString path = m_dir.filePath(QStringLiteral("session.strata"));
    ASSERT_TRUE(m_window->projectController()->saveTo(path));
    EXPECT_EQ(m_window->projectController()->projectPath(), QFileInfo(path).absoluteFilePath());
    auto onDisk = project::loadProjectFile(path.toStdString());
    ASSERT_TRUE(onDisk.ok());
    EXPECT_EQ(onDisk->target, "mncore2");
    EXPECT_EQ(onDisk->view.tab, "ops");
    EXPECT_EQ(onDisk->modelHash, m_window->scheduleDocument()->graph()->contentHash);

    auto second = makeWindow();
    ASSERT_TRUE(openProject(*second, path));
    ScheduleDocument& document = *second->scheduleDocument();
    EXPECT_EQ(document.targetKey(), QStringLiteral("mncore2"));
    ASSERT_NE(document.schedule(), nullptr);
    EXPECT_EQ(document.schedule()->blocks, saved.blocks);
    EXPECT_EQ(second->currentTabName(), QStringLiteral("ops"));
    EXPECT_EQ(second->projectController()->projectPath(), QFileInfo(path).absoluteFilePath());
    EXPECT_EQ(second->currentFile(), test::samplePath("resnet_tiny.onnx"));
}

TEST_F(ProjectWindowTest, ARecoveryFileRestoresTheSessionAfterACrash) {
    if (!openModel(*m_window, QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    ASSERT_TRUE(edit(*m_window));
    const sch::Schedule edited = *m_window->scheduleDocument()->schedule();
    ASSERT_TRUE(m_window->projectController()->autosave());
    // The crash: the window goes away without closing.
    m_window.reset();

    auto next = makeWindow();
    ProjectController& projects = *next->projectController();
    ASSERT_TRUE(projects.hasRecovery());
    QSignalSpy opened(&projects, &ProjectController::projectOpened);
    ASSERT_TRUE(projects.restoreRecovery());
    ASSERT_TRUE(QTest::qWaitFor([&] { return opened.count() > 0; }, test::kSettleTimeoutMs));
    ASSERT_TRUE(opened.at(0).at(1).toBool());
    ASSERT_TRUE(settle(*next));
    EXPECT_EQ(next->scheduleDocument()->schedule()->blocks, edited.blocks);
    EXPECT_TRUE(projects.projectPath().isEmpty()); // Save asks where: the recovery file is not it

    next->close(); // a clean close: nothing to recover next time
    EXPECT_FALSE(projects.hasRecovery());
}

TEST_F(ProjectWindowTest, ABrokenProjectIsRefusedAndTheWindowStaysUsable) {
    const QString path = m_dir.filePath(QStringLiteral("broken.strata"));
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("{\"strata_project\": 1, \"model\": {\"path\": \"x.onnx\"");
    }
    QSignalSpy opened(m_window->projectController(), &ProjectController::projectOpened);
    m_window->openFile(path);
    ASSERT_EQ(opened.count(), 1);
    EXPECT_FALSE(opened.at(0).at(1).toBool());
    EXPECT_TRUE(hasError(*m_window->diagnosticsPanel(), QStringLiteral("broken.strata")));
    if (!openModel(*m_window, QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    EXPECT_NE(m_window->scheduleDocument()->schedule(), nullptr);
}

TEST_F(ProjectWindowTest, AMovedModelIsAskedForAndAChangedOneIsReported) {
    if (!openModel(*m_window, QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    auto project = m_window->projectController()->currentProject();
    ASSERT_TRUE(project);
    const std::string dir = m_dir.path().toStdString();

    // Moved: the handler is asked, with the old path, and its answer is used.
    project->modelPath = dir + "/gone/resnet_tiny.onnx";
    const QString moved = m_dir.filePath(QStringLiteral("moved.strata"));
    {
        QFile file(moved);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(project::projectToJson(*project, dir)));
    }
    auto second = makeWindow();
    QString asked;
    second->projectController()->setRelocateHandler([&](const QString& message) {
        asked = message;
        return test::samplePath("resnet_tiny.onnx");
    });
    ASSERT_TRUE(openProject(*second, moved));
    EXPECT_TRUE(asked.contains(QStringLiteral("moved"))) << asked.toStdString();
    EXPECT_TRUE(asked.contains(QStringLiteral("gone"))) << asked.toStdString();
    EXPECT_EQ(second->currentFile(), test::samplePath("resnet_tiny.onnx"));

    // Given up: nothing opens.
    auto third = makeWindow();
    QSignalSpy opened(third->projectController(), &ProjectController::projectOpened);
    third->openFile(moved);
    ASSERT_EQ(opened.count(), 1);
    EXPECT_FALSE(opened.at(0).at(1).toBool());
    EXPECT_TRUE(third->currentFile().isEmpty());

    // Changed: another content hash opens the model and says so.
    project->modelPath = test::samplePath("resnet_tiny.onnx").toStdString();
    project->modelHash = "0000";
    const QString changed = m_dir.filePath(QStringLiteral("changed.strata"));
    {
        QFile file(changed);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(project::projectToJson(*project, dir)));
    }
    ASSERT_TRUE(openProject(*third, changed));
    EXPECT_TRUE(hasError(*third->diagnosticsPanel(), QStringLiteral("changed since the project")));
}

} // namespace
} // namespace strata::gui
