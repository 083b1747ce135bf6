// One Selection for the whole window: an op selected in the graph selects its block's row in
// the schedule table, its row in the op table and its instructions in the Program listing, and
// the Inspector shows it; an instruction picked in the listing selects its op in the graph; a
// block row picked in the table shows in the Inspector. The Selection ignores a set that
// changes nothing and one made while it is telling its followers (their echoes).

#include "controllers/CompileController.h"
#include "document/ScheduleDocument.h"
#include "document/Selection.h"
#include "panels/InspectorDock.h"
#include "support/WindowFixture.h"
#include "views/program/ProgramListingModel.h"
#include "views/program/ProgramView.h"
#include "views/schedule/ScheduleTableView.h"

#include <QLabel>
#include <QSignalSpy>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

using Origin = Selection::Origin;

TEST(Selection, ASetThatChangesNothingIsIgnored) {
    Selection selection(nullptr);
    QSignalSpy changed(&selection, &Selection::changed);
    selection.selectBlocks({3, 1, 3}, Origin::Table);
    ASSERT_EQ(changed.count(), 1);
    EXPECT_EQ(selection.blocks(), (std::vector<int>{1, 3}));
    EXPECT_EQ(selection.origin(), Origin::Table);
    selection.selectBlocks({1, 3}, Origin::Graph);
    EXPECT_EQ(changed.count(), 1);
    EXPECT_EQ(selection.origin(), Origin::Table);
    selection.clear(Origin::Graph);
    EXPECT_EQ(changed.count(), 2);
    EXPECT_TRUE(selection.blocks().empty());
}

TEST(Selection, AFollowersEchoIsNotANewSelection) {
    Selection selection(nullptr);
    int delivered = 0;
    // A follower whose view echoes what it was told as a selection of its own.
    QObject::connect(&selection, &Selection::changed, [&](Origin origin) {
        ++delivered;
        if (origin != Origin::Graph)
            selection.selectOps({ir::OpId(7)}, Origin::Graph);
    });
    selection.selectBlocks({2}, Origin::Table);
    EXPECT_EQ(delivered, 1);
    EXPECT_EQ(selection.blocks(), std::vector<int>{2});
    EXPECT_TRUE(selection.ops().empty());
}

TEST(Selection, InstructionsBringTheirOps) {
    compiler::Program program;
    program.instructions.resize(3);
    program.instructions[1].from.op = ir::OpId(5);
    Selection selection(nullptr);
    selection.selectInstructions({1, 9}, &program, Origin::Timeline);
    EXPECT_EQ(selection.instructions(), (std::vector<compiler::InstrId>{1, 9}));
    EXPECT_EQ(selection.ops(), std::vector<ir::OpId>{ir::OpId(5)});
    selection.selectInstructions({1}, nullptr, Origin::Timeline); // a trace file's event
    EXPECT_TRUE(selection.ops().empty());
}

class SelectionWindowTest : public test::WindowFixture {
  protected:
    void SetUp() override {
        WindowFixture::SetUp();
        if (HasFatalFailure())
            return;
        ASSERT_TRUE(openSample("resnet_tiny.onnx", QStringLiteral("mncore2")))
            << "cannot open the committed sample";
        m_window->compileController()->compileAction()->trigger();
        ASSERT_TRUE(settle());
        ASSERT_TRUE(m_window->compileController()->compiled().isValid());
    }

    const ir::Graph& graph() const { return *m_window->scheduleDocument()->graph(); }
    const compiler::Program& program() const {
        return m_window->compileController()->compiled().result->program;
    }
    // An op with instructions in a block of two ops or more.
    std::optional<ir::OpId> fusedOpWithInstructions() const {
        const ScheduleDocument& document = *m_window->scheduleDocument();
        for (const schedule::Block& block : document.schedule()->blocks)
            if (block.ops.size() > 1)
                for (ir::OpId op : block.ops)
                    for (const compiler::Instruction& in : program().instructions)
                        if (in.from.op == op)
                            return op;
        return std::nullopt;
    }
    QString inspectorTitle() const {
        return m_window->inspectorDock()
            ->findChild<QLabel*>(QStringLiteral("inspectorTitle"))
            ->text();
    }
};

TEST_F(SelectionWindowTest, AnOpSelectedInTheGraphIsSelectedEverywhere) {
    const auto op = fusedOpWithInstructions();
    ASSERT_TRUE(op) << "the sample has a fused block";
    const int block = m_window->scheduleDocument()->blockOfOp(*op);
    m_window->graphTab()->view()->selectOp(*op);

    Selection& selection = *m_window->selection();
    EXPECT_EQ(selection.ops(), std::vector<ir::OpId>{*op});
    EXPECT_EQ(selection.origin(), Origin::Graph);
    EXPECT_EQ(m_window->scheduleTable()->selectedBlocks(), std::vector<int>{block});
    views::program::ProgramView& listing = *m_window->programView();
    const auto current = listing.currentInstruction();
    ASSERT_TRUE(current);
    EXPECT_EQ(program().instructions[*current].from.op, *op);
    EXPECT_TRUE(inspectorTitle().contains(QString::fromStdString(graph().op(*op).name)));
    EXPECT_EQ(m_window->inspectorDock()->shownBlock(), block);
}

TEST_F(SelectionWindowTest, AnInstructionPickedInTheListingSelectsItsOp) {
    const auto op = fusedOpWithInstructions();
    ASSERT_TRUE(op) << "the sample has a fused block";
    compiler::InstrId id = 0;
    while (program().instructions[id].from.op != *op)
        ++id;
    views::program::ProgramView& listing = *m_window->programView();
    ASSERT_TRUE(listing.selectInstruction(id));
    EXPECT_EQ(m_window->selection()->origin(), Origin::Program);
    EXPECT_EQ(m_window->selection()->instructions(), std::vector<compiler::InstrId>{id});
    EXPECT_EQ(m_window->graphTab()->view()->selectedOps(), std::vector<ir::OpId>{*op});
    EXPECT_EQ(m_window->scheduleTable()->selectedBlocks(),
              std::vector<int>{m_window->scheduleDocument()->blockOfOp(*op)});
    EXPECT_EQ(listing.currentInstruction(), id); // the listing keeps the row picked
}

TEST_F(SelectionWindowTest, ABlockRowPickedInTheTableShowsInTheInspector) {
    const auto& blocks = m_window->scheduleDocument()->schedule()->blocks;
    ASSERT_GE(blocks.size(), 2u);
    const int block = blocks[1].id;
    m_window->scheduleTable()->selectBlock(block);
    EXPECT_EQ(m_window->selection()->blocks(), std::vector<int>{block});
    EXPECT_EQ(m_window->inspectorDock()->shownBlock(), block);
    EXPECT_EQ(m_window->graphTab()->view()->selectedBlocks(), std::vector<int>{block});
}

} // namespace
} // namespace strata::gui
