// The bytes a core moved recently, by address (emulator::RecentSpans): overlapping touches
// replace each other, and bytes fall out of reach once the core has moved more than the capacity.

#include "emulator/RecentSpans.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

TEST(RecentSpans, ShareIsTheRecentBytesOverTheSpan) {
    RecentSpans recent(1000);
    recent.touch(100, 200, 100);
    EXPECT_DOUBLE_EQ(recent.residentShare(100, 200, 100), 1.0);
    EXPECT_DOUBLE_EQ(recent.residentShare(150, 250, 100), 0.5);
    EXPECT_DOUBLE_EQ(recent.residentShare(0, 100, 100), 0.0);
    EXPECT_DOUBLE_EQ(recent.residentShare(120, 120, 100), 0.0); // empty
}

TEST(RecentSpans, BytesFallOutOfReachPastTheCapacity) {
    RecentSpans recent(1000);
    recent.touch(0, 100, 100);
    EXPECT_DOUBLE_EQ(recent.residentShare(0, 100, 1100), 1.0); // exactly the capacity since
    EXPECT_DOUBLE_EQ(recent.residentShare(0, 100, 1101), 0.0);
}

TEST(RecentSpans, ALaterTouchRenewsWhatItOverlapsAndKeepsTheRest) {
    RecentSpans recent(1000);
    recent.touch(0, 300, 300);    // out of reach from 1301 on
    recent.touch(100, 200, 1200); // renews the middle only
    EXPECT_DOUBLE_EQ(recent.residentShare(0, 300, 1300), 1.0);
    EXPECT_DOUBLE_EQ(recent.residentShare(0, 300, 1400), 1.0 / 3.0);
    // A touch over the seams of three pieces leaves one piece between the old ends.
    recent.touch(50, 250, 1500);
    EXPECT_DOUBLE_EQ(recent.residentShare(0, 300, 1500), 200.0 / 300.0);
    EXPECT_DOUBLE_EQ(recent.residentShare(40, 60, 1500), 0.5);
    EXPECT_DOUBLE_EQ(recent.residentShare(0, 300, 2501), 0.0);
}

TEST(RecentSpans, ManyTouchesKeepAnswersRight) {
    // Enough pieces for the sweep of old ones to run several times.
    RecentSpans recent(64 * 100);
    std::uint64_t moved = 0;
    for (std::uint64_t i = 0; i < 1000; ++i) {
        moved += 64;
        recent.touch(i * 64, i * 64 + 64, moved);
    }
    // The last 100 pieces are within reach, the ones before not.
    EXPECT_DOUBLE_EQ(recent.residentShare(900 * 64, 1000 * 64, moved), 1.0);
    EXPECT_DOUBLE_EQ(recent.residentShare(0, 899 * 64, moved), 0.0);
}

} // namespace
} // namespace strata::emulator
