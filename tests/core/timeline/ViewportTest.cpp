#include "timeline/Viewport.h"

#include <gtest/gtest.h>

namespace strata::timeline {
namespace {

TEST(Viewport, PixelAndTimeRoundTrip) {
    Viewport v{1'000, 250, 1600};
    for (double px : {0.0, 1.0, 799.5, 1600.0, -20.0})
        EXPECT_DOUBLE_EQ(v.toPixel(v.toPs(px)), px);
    for (double ps : {1'000.0, 5'000.0, 401'000.0, 0.0})
        EXPECT_NEAR(v.toPs(v.toPixel(ps)), ps, 1e-9);
    EXPECT_DOUBLE_EQ(v.endPs(), 1'000 + 250.0 * 1600);
}

TEST(Viewport, ZoomKeepsTheAnchorInPlace) {
    Viewport v{0, 1'000, 1000};
    const double anchorPs = v.toPs(300);
    v.zoomAbout(300, 4);
    EXPECT_DOUBLE_EQ(v.psPerPixel, 250);
    EXPECT_NEAR(v.toPs(300), anchorPs, 1e-6);
    v.zoomAbout(300, 0.25);
    EXPECT_DOUBLE_EQ(v.psPerPixel, 1'000);
    EXPECT_NEAR(v.startPs, 0, 1e-6);
}

TEST(Viewport, ZoomStopsAtTheLimits) {
    Viewport v{0, 1, 100};
    v.zoomAbout(50, 1e6);
    EXPECT_DOUBLE_EQ(v.psPerPixel, Viewport::kMinPsPerPixel);
    v.zoomAbout(50, 1e-30);
    EXPECT_DOUBLE_EQ(v.psPerPixel * v.widthPx, Viewport::kMaxSpanPs);
    const Viewport before = v;
    v.zoomAbout(50, 0);  // ignored
    v.zoomAbout(50, -2); // ignored
    EXPECT_DOUBLE_EQ(v.psPerPixel, before.psPerPixel);
}

TEST(Viewport, PanMovesByPixels) {
    Viewport v{10'000, 100, 500};
    v.pan(20);
    EXPECT_DOUBLE_EQ(v.startPs, 12'000);
    v.pan(-40);
    EXPECT_DOUBLE_EQ(v.startPs, 8'000);
}

TEST(Viewport, ZoomToRangeShowsExactlyTheRange) {
    Viewport v{0, 1, 800};
    v.zoomToRange(4'000'000, 2'000'000); // reversed is fine
    EXPECT_DOUBLE_EQ(v.startPs, 2'000'000);
    EXPECT_DOUBLE_EQ(v.endPs(), 4'000'000);
    v.zoomToRange(500, 500); // empty: centred at the narrowest zoom
    EXPECT_DOUBLE_EQ(v.psPerPixel, Viewport::kMinPsPerPixel);
    EXPECT_NEAR((v.startPs + v.endPs()) / 2, 500, 1e-9);
}

TEST(Viewport, FitShowsTheWholeRunFromZero) {
    Viewport v{123, 7, 1000};
    v.fit(10'000'000);
    EXPECT_DOUBLE_EQ(v.startPs, 0);
    EXPECT_GE(v.endPs(), 10'000'000);
    EXPECT_LT(v.endPs(), 10'500'000);
}

} // namespace
} // namespace strata::timeline
