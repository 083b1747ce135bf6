// The Program tab's widget: a highlight makes the first highlighted row current without
// claiming the user picked it, a user's pick is announced, the filter controls filter, an
// instruction hidden by a filter is still reachable, and the out-of-date banner.

#include "views/program/ProgramView.h"

#include "TestGraphs.h"
#include "compiler/Pipeline.h"
#include "schedule/Strategies.h"
#include "target/TargetLoader.h"
#include "views/program/ProgramListingModel.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <gtest/gtest.h>

namespace strata::views::program {
namespace {

using M = ProgramListingModel;

class ProgramViewTest : public ::testing::Test {
  protected:
    void SetUp() override {
        m_compiled.graph = test::makeSmallGraph();
        auto target = target::resolveTarget("mncore2");
        ASSERT_TRUE(target.ok());
        schedule::Schedule s =
            schedule::makeSchedule(*m_compiled.graph, *target, schedule::Strategy::PerOp);
        for (auto& block : s.blocks)
            block.mp = 2;
        auto result = compiler::compile(*m_compiled.graph, *target, s);
        ASSERT_TRUE(result.ok());
        m_compiled.result = std::make_shared<const compiler::CompileResult>(std::move(*result));
        m_compiled.targetName = QStringLiteral("mncore2");
        m_view.resize(1200, 600);
        m_view.setProgram(m_compiled);
        m_view.show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(&m_view));
    }

    const compiler::Program& program() const { return m_compiled.result->program; }

    CompiledProgram m_compiled;
    ProgramView m_view;
};

TEST_F(ProgramViewTest, AHighlightMovesToItsFirstInstructionWithoutAnnouncingIt) {
    QSignalSpy picked(&m_view, &ProgramView::instructionSelected);
    const ir::OpId fc = *m_compiled.graph->findOp("fc");
    m_view.highlightOp(fc);
    const auto current = m_view.currentInstruction();
    ASSERT_TRUE(current);
    EXPECT_EQ(program().instructions[*current].from.op, fc);
    EXPECT_EQ(m_view.table()->currentIndex().row(), m_view.model()->nextHighlighted(-1));
    EXPECT_EQ(picked.count(), 0);

    // The current row stays when it is already highlighted (the echo of the user's own pick).
    const int next = m_view.model()->nextHighlighted(m_view.table()->currentIndex().row());
    m_view.table()->setCurrentIndex(m_view.model()->index(next, 0));
    m_view.highlightOp(fc);
    EXPECT_EQ(m_view.table()->currentIndex().row(), next);
    m_view.clearHighlight();
    EXPECT_EQ(m_view.model()->highlightedCount(), 0);
}

TEST_F(ProgramViewTest, AUsersPickIsAnnounced) {
    QSignalSpy picked(&m_view, &ProgramView::instructionSelected);
    QTableView* table = m_view.table();
    const QRect cell = table->visualRect(m_view.model()->index(2, M::TextColumn));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    ASSERT_EQ(picked.count(), 1);
    EXPECT_EQ(picked.at(0).at(0).toUInt(), m_view.model()->instructionAt(2).id);
}

TEST_F(ProgramViewTest, FilterControlsFilterAndAHiddenInstructionCanStillBeSelected) {
    QComboBox* core = m_view.coreFilter();
    ASSERT_EQ(core->count(), program().cores + 1); // "All cores" and one per core
    core->setCurrentIndex(2);                      // core 1
    emit core->activated(2);
    for (int row = 0; row < m_view.model()->rowCount(); ++row)
        EXPECT_EQ(m_view.model()->instructionAt(row).core, 1);

    m_view.searchField()->setText(QStringLiteral("barrier"));
    emit m_view.searchField()->returnPressed();
    for (int row = 0; row < m_view.model()->rowCount(); ++row)
        EXPECT_EQ(m_view.model()->instructionAt(row).kind(), compiler::InstrKind::Barrier);

    // An instruction of core 0 is hidden: selecting it clears the filters.
    const compiler::InstrId first = program().streams[0].front();
    ASSERT_EQ(m_view.model()->rowOfInstruction(first), -1);
    QSignalSpy picked(&m_view, &ProgramView::instructionSelected);
    ASSERT_TRUE(m_view.selectInstruction(first));
    EXPECT_EQ(m_view.currentInstruction(), first);
    EXPECT_EQ(core->currentIndex(), 0);
    EXPECT_TRUE(m_view.searchField()->text().isEmpty());
    EXPECT_EQ(picked.count(), 1);
    EXPECT_FALSE(m_view.selectInstruction(1'000'000));
}

TEST_F(ProgramViewTest, TheBannerSaysWhenTheListingIsOutOfDate) {
    EXPECT_FALSE(m_view.isStale());
    m_view.setStale(true);
    EXPECT_TRUE(m_view.isStale());
    m_view.setProgram(m_compiled); // a fresh compile is up to date
    EXPECT_FALSE(m_view.isStale());
    m_view.showMessage(QStringLiteral("Not compiled yet."));
    EXPECT_FALSE(m_view.isShowingProgram());
    m_view.setStale(true); // nothing to be out of date
    EXPECT_FALSE(m_view.isStale());
}

} // namespace
} // namespace strata::views::program
