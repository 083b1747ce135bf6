// Messages that do not fit are not lost: a long refusal is elided in the status bar with the
// whole text as its tooltip and in the Diagnostics dock, whose rows carry their full text as
// tooltips too.

#include "panels/DiagnosticsPanel.h"
#include "support/GuiTestSupport.h"
#include "shell/MainWindow.h"
#include "document/ScheduleDocument.h"
#include "support/WindowTestSupport.h"

#include <QStatusBar>
#include <QTreeWidgetItem>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

TEST(MessagesWindowTest, ALongRefusalIsElidedWithTheWholeTextKept) {
    auto window = test::makeShownWindow({1000, 700});
    ASSERT_TRUE(test::openSample(*window, "resnet_tiny.onnx", QStringLiteral("mncore2")))
        << "cannot open the committed sample";
    // Blocks that do not exist, so many that the reason cannot fit the status bar.
    std::vector<int> missing;
    for (int id = 1000; id < 1080; ++id)
        missing.push_back(id);
    const EditOutcome outcome = window->scheduleDocument()->fuse(missing);
    ASSERT_TRUE(outcome.refused());
    const QString reason = outcome.reason;

    QStatusBar* status = window->statusBar();
    const QString shown = status->currentMessage();
    ASSERT_FALSE(shown.isEmpty());
    EXPECT_LT(shown.size(), reason.size());
    EXPECT_TRUE(shown.endsWith(QChar(0x2026))) << shown.toStdString(); // an ellipsis
    EXPECT_LE(status->fontMetrics().horizontalAdvance(shown), status->width());
    EXPECT_EQ(status->toolTip(), reason);
    // The dock has the refusal's diagnostic in full.
    const QString why = reason.mid(reason.indexOf(QStringLiteral("refused: ")) + 9);
    ASSERT_FALSE(why.isEmpty());
    EXPECT_TRUE(test::diagnosticsMention(*window->diagnosticsPanel(), why)) << why.toStdString();

    // Every row of the dock has its message and place as tooltips.
    const DiagnosticsPanel& panel = *window->diagnosticsPanel();
    ASSERT_GT(panel.topLevelItemCount(), 0);
    for (int i = 0; i < panel.topLevelItemCount(); ++i) {
        const QTreeWidgetItem* item = panel.topLevelItem(i);
        EXPECT_TRUE(item->toolTip(DiagnosticsPanel::MessageColumn)
                        .contains(item->text(DiagnosticsPanel::MessageColumn)))
            << item->text(DiagnosticsPanel::MessageColumn).toStdString();
        EXPECT_TRUE(item->toolTip(DiagnosticsPanel::LocationColumn)
                        .contains(item->text(DiagnosticsPanel::LocationColumn)));
    }
}

} // namespace
} // namespace strata::gui
