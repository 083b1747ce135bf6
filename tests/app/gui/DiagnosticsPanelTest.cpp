// The diagnostics dock's list when there is nothing to list: a hint in its middle saying what
// would appear there, gone as soon as a row arrives.

#include "panels/DiagnosticsPanel.h"

#include <QImage>
#include <QTest>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

// Pixels of the viewport's middle third that differ from its bottom-left corner (the background).
int inkedInTheMiddle(DiagnosticsPanel& panel) {
    const QImage image = panel.viewport()->grab().toImage();
    const QRgb background = image.pixel(2, image.height() - 3);
    int inked = 0;
    for (int y = image.height() / 3; y < image.height() * 2 / 3; ++y)
        for (int x = 0; x < image.width(); ++x)
            inked += image.pixel(x, y) != background;
    return inked;
}

TEST(DiagnosticsPanelTest, EmptySaysWhatAppearsThereUntilARowArrives) {
    DiagnosticsPanel panel;
    panel.resize(700, 300);
    panel.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&panel));
    ASSERT_EQ(panel.topLevelItemCount(), 0);
    EXPECT_FALSE(panel.placeholderText().isEmpty());
    EXPECT_GT(inkedInTheMiddle(panel), 50) << "no hint painted in the empty list";

    Diagnostic note;
    note.severity = Severity::Note;
    note.message = "a note";
    panel.setDiagnostics(DiagnosticsPanel::Source::Import, {note});
    ASSERT_EQ(panel.topLevelItemCount(), 1);
    // The one row sits at the top: the middle is blank again.
    EXPECT_EQ(inkedInTheMiddle(panel), 0) << "the hint is still painted over the rows";

    panel.clearSource(DiagnosticsPanel::Source::Import);
    EXPECT_GT(inkedInTheMiddle(panel), 50) << "the hint did not come back";
}

} // namespace
} // namespace strata::gui
