// What a user expects of a document window: the title names the model or project and marks
// unsaved edits; closing with unsaved edits asks (Save / Discard / Cancel) instead of losing
// them; Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y undo and redo from the keyboard; and Undo right after
// opening a project does not go back to the default schedule.

#include "shell/UnsavedChanges.h"

#include "support/GuiTestSupport.h"
#include "shell/MainWindow.h"
#include "controllers/ProjectController.h"
#include "document/ScheduleDocument.h"
#include "support/WindowFixture.h"

#include <QAbstractButton>
#include <QApplication>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

using test::makeShownWindow;
using test::openSample;
using test::settle;
using test::splitFirstFusedBlock;

class UnsavedChangesTest : public test::ProjectWindowFixture {
  protected:
    void SetUp() override {
        ProjectWindowFixture::SetUp();
        ASSERT_TRUE(openSample(*m_window, "resnet_tiny.onnx", QStringLiteral("mncore2")))
            << "cannot open the committed sample";
    }

    ScheduleDocument& document() const { return *m_window->scheduleDocument(); }

    // Presses `key` with `modifiers` on the active window, as a user would.
    void press(Qt::Key key, Qt::KeyboardModifiers modifiers) {
        m_window->activateWindow();
        ASSERT_TRUE(QTest::qWaitForWindowActive(m_window.get()));
        QTest::keyClick(m_window.get(), key, modifiers);
        ASSERT_TRUE(settle(*m_window));
    }
};

TEST_F(UnsavedChangesTest, TheTitleNamesTheModelAndMarksAnEdit) {
    EXPECT_EQ(m_window->windowTitle(), QStringLiteral("Strata \u2014 resnet_tiny.onnx[*]"));
    EXPECT_FALSE(m_window->isWindowModified());
    ASSERT_TRUE(splitFirstFusedBlock(*m_window));
    EXPECT_TRUE(m_window->isWindowModified());
    document().undoStack()->undo();
    ASSERT_TRUE(settle(*m_window));
    EXPECT_FALSE(m_window->isWindowModified()); // back at the state opened
}

TEST_F(UnsavedChangesTest, ClosingWithAnEditAsksAndCancelKeepsTheWindow) {
    ASSERT_TRUE(splitFirstFusedBlock(*m_window));
    const schedule::Schedule edited = *document().schedule();
    // The real question: a message box, answered Cancel by a click once it is up.
    QString asked;
    QTimer answer;
    QObject::connect(&answer, &QTimer::timeout, [&] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box)
            return;
        answer.stop();
        asked = box->text();
        QTest::mouseClick(box->button(QMessageBox::Cancel), Qt::LeftButton);
    });
    answer.start(20);
    EXPECT_FALSE(m_window->close());
    EXPECT_TRUE(asked.contains(QStringLiteral("resnet_tiny.onnx"))) << asked.toStdString();
    EXPECT_TRUE(m_window->isVisible());
    EXPECT_EQ(*document().schedule(), edited);
    EXPECT_TRUE(m_window->isWindowModified());
}

TEST_F(UnsavedChangesTest, DiscardCloses) {
    ASSERT_TRUE(splitFirstFusedBlock(*m_window));
    int asked = 0;
    m_window->unsavedChanges()->setPrompt([&](const QString&) {
        ++asked;
        return UnsavedChanges::Answer::Discard;
    });
    EXPECT_TRUE(m_window->close());
    EXPECT_EQ(asked, 1);
    EXPECT_FALSE(m_window->isVisible());
}

TEST_F(UnsavedChangesTest, SaveWritesTheProjectBeforeClosing) {
    const QString path = m_dir.filePath(QStringLiteral("session.strata"));
    ASSERT_TRUE(m_window->projectController()->saveTo(path));
    EXPECT_EQ(m_window->windowTitle(), QStringLiteral("Strata \u2014 session.strata[*]"));
    ASSERT_TRUE(splitFirstFusedBlock(*m_window));
    ASSERT_TRUE(m_window->isWindowModified());
    const schedule::Schedule edited = *document().schedule();
    m_window->unsavedChanges()->setPrompt(
        [](const QString&) { return UnsavedChanges::Answer::Save; });
    EXPECT_TRUE(m_window->close());
    EXPECT_FALSE(m_window->isWindowModified());

    auto reopened = makeWindow();
    ASSERT_TRUE(test::openProject(*reopened, path));
    EXPECT_EQ(reopened->scheduleDocument()->schedule()->blocks, edited.blocks);
}

TEST_F(UnsavedChangesTest, AModelOpenedAfterAProjectIsANewDocument) {
    const QString path = m_dir.filePath(QStringLiteral("first.strata"));
    ASSERT_TRUE(m_window->projectController()->saveTo(path));
    ASSERT_EQ(m_window->windowTitle(), QStringLiteral("Strata \u2014 first.strata[*]"));
    ASSERT_TRUE(openSample(*m_window, "mobilenet_tiny.onnx", QStringLiteral("mncore2")));
    EXPECT_EQ(m_window->windowTitle(), QStringLiteral("Strata \u2014 mobilenet_tiny.onnx[*]"));
    EXPECT_TRUE(m_window->projectController()->projectPath().isEmpty()); // Save asks where
}

TEST_F(UnsavedChangesTest, NothingUnsavedClosesWithoutAsking) {
    int asked = 0;
    m_window->unsavedChanges()->setPrompt([&](const QString&) {
        ++asked;
        return UnsavedChanges::Answer::Cancel;
    });
    EXPECT_TRUE(m_window->close());
    EXPECT_EQ(asked, 0);
}

TEST_F(UnsavedChangesTest, CtrlYAndCtrlShiftZRedo) {
    const schedule::Schedule opened = *document().schedule();
    ASSERT_TRUE(splitFirstFusedBlock(*m_window));
    const schedule::Schedule edited = *document().schedule();
    ASSERT_NE(edited, opened);

    press(Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(*document().schedule(), opened);
    press(Qt::Key_Y, Qt::ControlModifier);
    EXPECT_EQ(*document().schedule(), edited);
    press(Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(*document().schedule(), opened);
    press(Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_EQ(*document().schedule(), edited);
}

TEST_F(UnsavedChangesTest, UndoRightAfterOpeningAProjectKeepsItsSchedule) {
    ASSERT_TRUE(splitFirstFusedBlock(*m_window));
    const schedule::Schedule edited = *document().schedule();
    const QString path = m_dir.filePath(QStringLiteral("edited.strata"));
    ASSERT_TRUE(m_window->projectController()->saveTo(path));

    auto reopened = makeWindow();
    ASSERT_TRUE(test::openProject(*reopened, path));
    ScheduleDocument& opened = *reopened->scheduleDocument();
    ASSERT_EQ(opened.schedule()->blocks, edited.blocks);
    EXPECT_FALSE(opened.undoStack()->canUndo());
    EXPECT_FALSE(reopened->isWindowModified());
    EXPECT_EQ(reopened->windowTitle(), QStringLiteral("Strata \u2014 edited.strata[*]"));
    opened.undoStack()->undo();
    ASSERT_TRUE(settle(*reopened));
    EXPECT_EQ(opened.schedule()->blocks, edited.blocks);
}

} // namespace
} // namespace strata::gui
