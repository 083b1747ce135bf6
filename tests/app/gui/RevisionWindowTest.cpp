// One revision, one rule: every tab and controller decides whether what it shows is current by
// ScheduleDocument::isCurrent. After Run on Host the Program tab shows the program run; a target
// switch makes the run of another revision everywhere at once (schedule table, Program tab,
// Timeline, Transfers), and undoing the switch makes it current everywhere again.

#include "controllers/CompileController.h"
#include "controllers/MeasureController.h"
#include "document/ScheduleDocument.h"
#include "support/WindowFixture.h"
#include "tabs/RevisionBanner.h"
#include "tabs/TimelineTab.h"
#include "tabs/TransfersTab.h"
#include "views/program/ProgramView.h"
#include "views/schedule/ScheduleTableModel.h"

#include <QUndoStack>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

using Model = views::schedule::ScheduleTableModel;

class RevisionWindowTest : public test::WindowFixture {
  protected:
    RevisionBanner* banner(QWidget* tab) const { return tab->findChild<RevisionBanner*>(); }

    // Some block row of the schedule table shows a measured time.
    bool tableShowsMeasurements() const {
        const Model& table = *m_window->scheduleModel();
        for (int row = 0; row < table.rowCount(); ++row)
            if (!table.index(row, Model::MeasuredColumn).data().toString().isEmpty())
                return true;
        return false;
    }
};

TEST(RevisionRule, SameObjectOrSameNumberIsCurrent) {
    auto first = std::make_shared<Revision>();
    first->number = 3;
    auto copy = std::make_shared<Revision>(*first);
    auto other = std::make_shared<Revision>();
    other->number = 4;
    auto unnumbered = std::make_shared<Revision>();
    EXPECT_TRUE(isCurrent(first, first));
    EXPECT_TRUE(isCurrent(copy, first));
    EXPECT_FALSE(isCurrent(other, first));
    EXPECT_FALSE(isCurrent(nullptr, first));
    EXPECT_FALSE(isCurrent(first, nullptr));
    EXPECT_TRUE(isCurrent(unnumbered, unnumbered)); // the same object
    EXPECT_FALSE(isCurrent(std::make_shared<Revision>(), unnumbered));
}

TEST_F(RevisionWindowTest, UndoingATargetSwitchMakesTheRunCurrentInEveryTabAgain) {
    if (!test::openSample(*m_window, "resnet_tiny.onnx", QStringLiteral("host")))
        FAIL() << "cannot open the committed sample";
    const RevisionPtr run = document().revision();
    ASSERT_TRUE(test::runOnHost(*m_window));
    MeasureController& measure = *m_window->measureController();
    ASSERT_TRUE(measure.isCurrent());
    EXPECT_EQ(measure.last()->emulation->revision, run);

    // The Program tab shows the program the run compiled, not "Not compiled yet".
    views::program::ProgramView& program = *m_window->programView();
    EXPECT_TRUE(program.isShowingProgram());
    EXPECT_FALSE(program.isStale());
    EXPECT_EQ(m_window->compileController()->compiledRevision(), run);
    EXPECT_TRUE(tableShowsMeasurements());
    RevisionBanner* timeline = banner(m_window->timelineTab());
    RevisionBanner* transfers = banner(m_window->transfersTab());
    ASSERT_NE(timeline, nullptr);
    ASSERT_NE(transfers, nullptr);
    EXPECT_FALSE(timeline->isStale());
    EXPECT_FALSE(transfers->isStale());

    ASSERT_TRUE(document().setTarget(QStringLiteral("mncore2")));
    ASSERT_TRUE(settle());
    ASSERT_NE(document().revision(), run);
    EXPECT_FALSE(measure.isCurrent());
    EXPECT_FALSE(tableShowsMeasurements());
    EXPECT_TRUE(program.isStale());
    EXPECT_TRUE(timeline->isStale());
    EXPECT_TRUE(transfers->isStale());
    EXPECT_TRUE(timeline->text().contains(QStringLiteral("earlier schedule")))
        << timeline->text().toStdString();
    EXPECT_FALSE(timeline->isHidden());

    document().undoStack()->undo(); // back to host: the revision run
    ASSERT_TRUE(settle());
    EXPECT_EQ(document().revision(), run);
    EXPECT_TRUE(measure.isCurrent());
    EXPECT_TRUE(tableShowsMeasurements());
    EXPECT_FALSE(program.isStale());
    EXPECT_FALSE(timeline->isStale());
    EXPECT_FALSE(transfers->isStale());
    EXPECT_TRUE(timeline->isHidden());

    document().undoStack()->redo(); // the run is of an earlier revision than this one again
    ASSERT_TRUE(settle());
    EXPECT_FALSE(measure.isCurrent());
    EXPECT_FALSE(tableShowsMeasurements());
    EXPECT_TRUE(transfers->isStale());
}

} // namespace
} // namespace strata::gui
