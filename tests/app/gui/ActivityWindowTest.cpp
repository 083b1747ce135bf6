// Every activity of the window (controllers, tabs and dialogs with work of their own) reports
// through one ActivityBoard: its status goes to the status bar, its diagnostics to the
// Diagnostics dock under the source its policy names (the dock coming up as the policy says),
// and its busy state to the window's.

#include "controllers/CompileController.h"
#include "controllers/MeasureController.h"
#include "jobs/Activity.h"
#include "shell/ActivityBoard.h"
#include "support/WindowFixture.h"
#include "tabs/TimelineTab.h"

#include <QDockWidget>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>
#include <gtest/gtest.h>
#include <set>

namespace strata::gui {
namespace {

class ActivityWindowTest : public test::WindowFixture {
  protected:
    void SetUp() override {
        WindowFixture::SetUp();
        if (HasFatalFailure())
            return;
        ASSERT_TRUE(settle());
    }

    QDockWidget* diagnosticsDock() const {
        return m_window->findChild<QDockWidget*>(QStringLiteral("diagnosticsDock"));
    }
};

TEST_F(ActivityWindowTest, EveryActivityIsOnTheBoardOnce) {
    const std::vector<Activity*>& activities = m_window->activityBoard()->activities();
    const std::set<Activity*> distinct(activities.begin(), activities.end());
    EXPECT_EQ(distinct.size(), activities.size());
    for (Activity* activity :
         {m_window->compileController()->activity(), m_window->measureController()->activity(),
          m_window->timelineTab()->activity()})
        EXPECT_TRUE(distinct.count(activity)) << activity->name().toStdString();
    for (const Activity* activity : activities)
        EXPECT_FALSE(activity->name().isEmpty());
}

TEST_F(ActivityWindowTest, AReportGoesWhereItsPolicySays) {
    diagnosticsDock()->hide();
    // A trace file's warnings are listed, quietly.
    m_window->timelineTab()->activity()->report({warning("an odd trace")});
    EXPECT_TRUE(
        test::diagnosticsMention(*m_window->diagnosticsPanel(), QStringLiteral("an odd trace")));
    EXPECT_TRUE(diagnosticsDock()->isHidden());
    // A failed run brings the dock up, with its summary.
    m_window->measureController()->activity()->report({error("the runtime broke")},
                                                      QStringLiteral("Run on host failed"));
    EXPECT_TRUE(test::diagnosticsMention(*m_window->diagnosticsPanel(),
                                         QStringLiteral("the runtime broke")));
    EXPECT_TRUE(test::diagnosticsMention(*m_window->diagnosticsPanel(),
                                         QStringLiteral("Run on host failed")));
    EXPECT_FALSE(diagnosticsDock()->isHidden());
}

TEST_F(ActivityWindowTest, StatusAndBusyStateAreTheWindows) {
    Activity& compile = *m_window->compileController()->activity();
    const QString text = QStringLiteral("Compiling ") + QString(400, QLatin1Char('x'));
    compile.showStatus(text, 0);
    EXPECT_EQ(compile.status(), text);
    const QString shown = m_window->statusBar()->currentMessage();
    EXPECT_TRUE(shown.startsWith(QStringLiteral("Compiling")));
    EXPECT_LT(shown.size(), text.size()); // elided to the room left
    EXPECT_EQ(m_window->statusBar()->toolTip(), text);

    // A permanent field whose text grows afterwards takes its room from the message, which is
    // elided again rather than cut off under the field.
    auto* field = new QLabel(QStringLiteral("short"));
    m_window->activityBoard()->addPermanentWidget(field);
    compile.showStatus(QStringLiteral("Measured ") + QString(120, QLatin1Char('m')), 0);
    field->setText(QString(90, QLatin1Char('f')));
    ASSERT_TRUE(QTest::qWaitFor([field] { return field->width() >= field->sizeHint().width(); }));
    const QString after = m_window->statusBar()->currentMessage();
    EXPECT_TRUE(after.endsWith(QChar(0x2026))) << after.toStdString(); // an ellipsis
    EXPECT_LT(m_window->statusBar()->fontMetrics().horizontalAdvance(after),
              field->geometry().left());

    EXPECT_FALSE(m_window->isBusy());
    compile.setBusy(true);
    EXPECT_TRUE(m_window->isBusy());
    QProgressBar* busy = m_window->activityBoard()->busyIndicator();
    EXPECT_FALSE(busy->isHidden());
    EXPECT_EQ(busy->toolTip(), compile.name());
    compile.setBusy(false);
    EXPECT_FALSE(m_window->isBusy());
    EXPECT_TRUE(busy->isHidden());
}

} // namespace
} // namespace strata::gui
