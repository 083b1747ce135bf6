// Compiling in the main window: Compile fills the Program and Pipeline tabs in the background;
// an edit makes them out of date and an undo back to the compiled schedule makes them current
// again; a compile overtaken by an edit is dropped, one cancelled shows nothing; and the
// selection is linked both ways between the graph (and schedule table) and the listing.

#include "controllers/CompileController.h"
#include "jobs/CompileJob.h"
#include "panels/DiagnosticsPanel.h"
#include "tabs/GraphTab.h"
#include "support/GuiTestSupport.h"
#include "shell/MainWindow.h"
#include "document/ScheduleDocument.h"
#include "support/WindowFixture.h"
#include "views/graph/GraphView.h"
#include "views/pipeline/PassTableModel.h"
#include "views/pipeline/PipelineView.h"
#include "views/program/ProgramListingModel.h"
#include "views/program/ProgramView.h"
#include "views/schedule/ScheduleTableView.h"

#include <QAction>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QUndoStack>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

using views::program::ProgramListingModel;

class ProgramWindowTest : public test::WindowFixture {
  protected:
    void SetUp() override {
        WindowFixture::SetUp();
        ASSERT_TRUE(openSample("resnet_tiny.onnx", QStringLiteral("mncore2")))
            << "cannot open the committed sample";
    }

    // Every compile started has ended and its result (or its drop) been delivered: what
    // arrives late arrives now, so a count after this proves nothing more comes.
    void drainCompiles() { test::drainTasks(); }

    CompileController& compiler() const { return *m_window->compileController(); }
    views::program::ProgramView& program() const { return *m_window->programView(); }
    ProgramListingModel& listing() const { return *program().model(); }
    views::graph::GraphView& graph() const { return *m_window->graphTab()->view(); }
    const compiler::Program& compiled() const { return compiler().compiled().result->program; }

    bool compileAndWait() {
        compiler().compileAction()->trigger();
        return settle() && compiler().compiled().isValid();
    }

    // A compute instruction's op other than `not`.
    ir::OpId someComputedOp(std::optional<ir::OpId> other = {}) const {
        for (const auto& in : compiled().instructions)
            if (in.kind() == compiler::InstrKind::Compute && in.from.op != other)
                return in.from.op;
        return {};
    }

    QString statusText() const { return m_window->statusBar()->currentMessage(); }
};

TEST_F(ProgramWindowTest, CompileFillsTheProgramAndPipelineTabs) {
    EXPECT_FALSE(program().isShowingProgram());
    QAction* compile = compiler().compileAction();
    EXPECT_TRUE(compile->shortcuts().contains(QKeySequence(Qt::Key_F7)));
    EXPECT_TRUE(compile->shortcuts().contains(QKeySequence(Qt::CTRL | Qt::Key_B)));
    ASSERT_TRUE(compileAndWait());
    EXPECT_TRUE(program().isShowingProgram());
    EXPECT_EQ(listing().rowCount(), static_cast<int>(compiled().instructions.size()));
    EXPECT_EQ(m_window->pipelineView()->model()->rowCount(),
              static_cast<int>(compiler::passes().size()));
    EXPECT_FALSE(program().isStale());
    EXPECT_TRUE(statusText().startsWith(QStringLiteral("Compiled resnet_tiny for mncore2 in")))
        << statusText().toStdString();
    EXPECT_TRUE(m_window->showTab(QStringLiteral("program")));
    EXPECT_TRUE(m_window->showTab(QStringLiteral("pipeline")));
}

TEST_F(ProgramWindowTest, AnEditMakesTheTabsOutOfDateAndUndoMakesThemCurrent) {
    ASSERT_TRUE(compileAndWait());
    const auto& block = document().schedule()->blocks.front();
    ASSERT_TRUE(document().setMp(block.id, block.mp == 1 ? 2 : 1).applied());
    EXPECT_TRUE(compiler().isStale());
    EXPECT_TRUE(program().isStale());
    EXPECT_TRUE(m_window->pipelineView()->isStale());
    EXPECT_TRUE(program().isShowingProgram()); // the old listing stays readable
    document().undoStack()->undo();
    EXPECT_FALSE(compiler().isStale());
    EXPECT_FALSE(program().isStale());
}

TEST_F(ProgramWindowTest, ACompileOvertakenByAnEditIsDropped) {
    QSignalSpy shown(&compiler(), &CompileController::programShown);
    compiler().compile();
    ASSERT_TRUE(compiler().isCompiling());
    const auto& block = document().schedule()->blocks.front();
    ASSERT_TRUE(document().setMp(block.id, block.mp == 1 ? 2 : 1).applied());
    EXPECT_FALSE(compiler().isCompiling());
    ASSERT_TRUE(settle());
    drainCompiles(); // the overtaken compile's result has come back and been dropped
    EXPECT_EQ(shown.count(), 0);
    EXPECT_FALSE(compiler().compiled().isValid());
    EXPECT_FALSE(program().isShowingProgram());
    EXPECT_TRUE(statusText().contains(QStringLiteral("schedule changed")))
        << statusText().toStdString();

    // Compiling the new schedule works.
    ASSERT_TRUE(compileAndWait());
    EXPECT_EQ(shown.count(), 1);
}

TEST_F(ProgramWindowTest, CancelStopsTheCompile) {
    QSignalSpy shown(&compiler(), &CompileController::programShown);
    compiler().compile();
    ASSERT_TRUE(compiler().cancelAction()->isEnabled());
    compiler().cancelAction()->trigger();
    EXPECT_FALSE(compiler().isCompiling());
    EXPECT_FALSE(m_window->isBusy());
    drainCompiles(); // the cancelled compile has stopped and nothing of it was shown
    EXPECT_EQ(shown.count(), 0);
    EXPECT_FALSE(program().isShowingProgram());
    EXPECT_EQ(statusText(), QStringLiteral("Compile cancelled"));
}

TEST_F(ProgramWindowTest, SelectingAnOpHighlightsItsInstructions) {
    ASSERT_TRUE(compileAndWait());
    ASSERT_TRUE(graph().isShowingGraph());
    const ir::OpId op = someComputedOp();
    ASSERT_TRUE(op.valid());
    graph().selectOp(op);
    ASSERT_TRUE(QTest::qWaitFor([&] { return listing().highlight().op == op; }, 2000));
    int expected = 0;
    for (const auto& in : compiled().instructions)
        expected += in.from.op == op ? 1 : 0;
    EXPECT_EQ(listing().highlightedCount(), expected);
    const auto current = program().currentInstruction();
    ASSERT_TRUE(current);
    EXPECT_EQ(compiled().instructions[*current].from.op, op);
    // The first of them, in listing order.
    EXPECT_EQ(program().table()->currentIndex().row(), listing().nextHighlighted(-1));

    // A block's row in the schedule table highlights the block's instructions.
    graph().clearFocus();
    const int block = document().schedule()->blocks.back().id;
    m_window->scheduleTable()->selectBlock(block);
    ASSERT_TRUE(QTest::qWaitFor(
        [&] { return !listing().highlight().op && listing().highlight().block == block; }, 2000));
    EXPECT_GT(listing().highlightedCount(), 0);
}

TEST_F(ProgramWindowTest, SelectingAnInstructionSelectsItsOpAndBlock) {
    ASSERT_TRUE(compileAndWait());
    ASSERT_TRUE(graph().isShowingGraph());
    const ir::OpId first = someComputedOp();
    graph().selectOp(first);
    const ir::OpId op = someComputedOp(first);
    compiler::InstrId id = 0;
    for (const auto& in : compiled().instructions)
        if (in.from.op == op && in.kind() == compiler::InstrKind::Compute) {
            id = in.id;
            break;
        }
    const int block = compiled().instructions[id].from.block;
    ASSERT_TRUE(program().selectInstruction(id));
    EXPECT_EQ(graph().selectedOps(), std::vector<ir::OpId>{op});
    EXPECT_EQ(m_window->scheduleTable()->currentBlock(), block);
    // The graph's selection comes back as a highlight of the op, and the pick stays current.
    ASSERT_TRUE(QTest::qWaitFor([&] { return listing().highlight().op == op; }, 2000));
    EXPECT_EQ(program().currentInstruction(), id);
}

} // namespace
} // namespace strata::gui
