// The cache lines a transfer's rows touch on one side (emulator::transferLines) and the bytes its
// box spans (emulator::transferSpan), as `accuracy --events` reports them.

#include "emulator/TransferRows.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

TEST(TransferLines, ContiguousRunsCountTheLinesTheyTouch) {
    compiler::Transfer t;
    t.bytes = 256;
    t.source.shape = t.destination.shape = {256};
    EXPECT_EQ(transferLines(t, true), 4u); // aligned
    t.source.offset = 32;
    EXPECT_EQ(transferLines(t, true), 5u); // straddles one more
    EXPECT_EQ(transferLines(t, false), 4u);
}

TEST(TransferLines, ShortRowsTouchWholeLinesAndNeighboursShareThem) {
    // 8 rows of 56 bytes, 112 apart (a column tile of 14 floats out of rows of 28): rows at
    // 0, 112, 224, 336, 448...: within 64-byte lines 0 | 1-2 | 3-4 | 5-6 | 7 | ...: every 448
    // bytes (7 lines), one row fits a line and three straddle two.
    compiler::Transfer t;
    t.bytes = 8 * 56;
    t.source.shape = t.destination.shape = {8, 56};
    t.source.strides = {112, 1};
    EXPECT_EQ(transferRows(t), 8u);
    EXPECT_EQ(transferLines(t, true), 14u);
    // 32 rows of 16 bytes, 32 apart: two rows per line.
    compiler::Transfer narrow;
    narrow.bytes = 32 * 16;
    narrow.source.shape = narrow.destination.shape = {32, 16};
    narrow.source.strides = {32, 1};
    EXPECT_EQ(transferLines(narrow, true), 16u);
}

TEST(TransferSpan, FromTheFirstByteToTheLastGapsIncluded) {
    compiler::Transfer t;
    t.bytes = 8 * 56;
    t.source.shape = t.destination.shape = {8, 56};
    t.source.strides = {112, 1};
    t.source.offset = 1000;
    const ByteSpan span = transferSpan(t, true);
    EXPECT_EQ(span.begin, 1000u);
    EXPECT_EQ(span.end, 1000u + 7 * 112 + 56);
    const ByteSpan contiguous = transferSpan(t, false);
    EXPECT_EQ(contiguous.end - contiguous.begin, 8u * 56);
}

} // namespace
} // namespace strata::emulator
