// Tile text: what the schedule table shows and what the user may type.

#include "views/schedule/TileText.h"

#include <gtest/gtest.h>

namespace strata::views::schedule {
namespace {

TEST(TileTextTest, FormatsAutoAndExtents) {
    EXPECT_EQ(tileSpecText({}), QStringLiteral("auto"));
    EXPECT_EQ(tileSpecText({ir::Shape{1, 16, 8, 8}}), QStringLiteral("1x16x8x8"));
}

TEST(TileTextTest, ParsesWhatItFormats) {
    EXPECT_TRUE(parseTileSpec(QStringLiteral("auto"))->isAuto());
    EXPECT_TRUE(parseTileSpec(QStringLiteral("  AUTO "))->isAuto());
    EXPECT_TRUE(parseTileSpec(QString())->isAuto());
    EXPECT_EQ(parseTileSpec(QStringLiteral("1x16x8x8"))->extents, (ir::Shape{1, 16, 8, 8}));
    EXPECT_EQ(parseTileSpec(QStringLiteral("1 \u00d7 4, 2"))->extents, (ir::Shape{1, 4, 2}));
    EXPECT_EQ(parseTileSpec(QStringLiteral("7"))->extents, (ir::Shape{7}));
}

TEST(TileTextTest, RefusesWhatIsNotATile) {
    for (const char* bad :
         {"0x4", "1x-4", "1xx4", "x4", "4x", "abc", "1.5x2", "+3", "1x99999999999999999999"})
        EXPECT_FALSE(parseTileSpec(QString::fromUtf8(bad)).has_value()) << bad;
}

} // namespace
} // namespace strata::views::schedule
