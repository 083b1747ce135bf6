// The pooling kernel (runtime/Pool2d.h) against strata_rt's loop, bit for bit, on output tiles
// cut along rows, columns and channels with the input box a tile's halo needs: max and average
// (with and without the padding counted), strides, dilations, pads at either end. It reads nothing
// outside the input box and declines boxes that lack what the tile reads.

#include "KernelBoxes.h"
#include "runtime/Pool2d.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>

namespace strata::test {
namespace {

struct PoolCase {
    const char* name;
    bool isMax, countPad;
    i64 c, h, w, k, stride, padBegin, padEnd, dilation;
    i64 row0, rows, col0, cols, ch0, chs; // the output tile
};

i64 outputSize(i64 in, const PoolCase& p) {
    return (in + p.padBegin + p.padEnd - p.dilation * (p.k - 1) - 1) / p.stride + 1;
}

// The input rows or columns [first, last] an output range reads, clipped to the tensor.
std::pair<i64, i64> reads(i64 out0, i64 outs, i64 in, const PoolCase& p) {
    return {std::max<i64>(0, out0 * p.stride - p.padBegin),
            std::min<i64>(in - 1, (out0 + outs - 1) * p.stride - p.padBegin + (p.k - 1) * p.dilation)};
}

rt::Window2d windowOf(const PoolCase& p) {
    rt::Window2d w{};
    for (int d = 0; d < 2; ++d) {
        w.kernel[d] = p.k;
        w.stride[d] = p.stride;
        w.padBegin[d] = p.padBegin;
        w.dilation[d] = p.dilation;
    }
    return w;
}

class PoolKernelTest : public ::testing::TestWithParam<PoolCase> {};

TEST_P(PoolKernelTest, MatchesTheLoopBitForBitReadingOnlyItsInputBox) {
    const PoolCase& p = GetParam();
    std::mt19937 rng(3);
    const i64 oh = outputSize(p.h, p), ow = outputSize(p.w, p);
    ASSERT_LE(p.row0 + p.rows, oh);
    ASSERT_LE(p.col0 + p.cols, ow);
    const auto [r0, r1] = reads(p.row0, p.rows, p.h, p);
    const auto [c0, c1] = reads(p.col0, p.cols, p.w, p);
    Box x({1, p.c, p.h, p.w}, {0, p.ch0, r0, c0}, {1, p.chs, r1 - r0 + 1, c1 - c0 + 1}, rng);
    std::vector<float> guarded(x.data.size() + 256, std::numeric_limits<float>::quiet_NaN());
    std::copy(x.data.begin(), x.data.end(), guarded.begin() + 128);
    rt::View<float> xGuarded = x.view;
    xGuarded.data = guarded.data() + 128;

    Box y({1, p.c, oh, ow}, {0, p.ch0, p.row0, p.col0}, {1, p.chs, p.rows, p.cols}, rng);
    Box expected = y;
    expected.view.data = expected.data.data();
    const i64 padEnd[2] = {p.padEnd, p.padEnd};
    rt::pool2d(expected.view, x.view, windowOf(p), p.isMax, p.countPad, padEnd);

    ASSERT_TRUE(runtime::fastPool2d(y.view, xGuarded, windowOf(p), p.isMax, p.countPad, padEnd));
    for (std::size_t i = 0; i < y.data.size(); ++i)
        ASSERT_EQ(std::memcmp(&y.data[i], &expected.data[i], sizeof(float)), 0)
            << "element " << i << ": " << y.data[i] << " vs " << expected.data[i];
}

INSTANTIATE_TEST_SUITE_P(
    Tiles, PoolKernelTest,
    ::testing::Values(
        // name, max, countPad, c, h, w, k, stride, padBegin, padEnd, dilation, row0, rows, col0, cols, ch0, chs
        PoolCase{"resnetStemWhole", true, false, 3, 112, 112, 3, 2, 1, 1, 1, 0, 56, 0, 56, 0, 3},
        PoolCase{"resnetStemMiddleTile", true, false, 8, 112, 112, 3, 2, 1, 1, 1, 20, 9, 13, 30, 2, 5},
        PoolCase{"stemLastRowsAndColumns", true, false, 2, 113, 111, 3, 2, 1, 1, 1, 50, 7, 40, 16, 0, 2},
        PoolCase{"averageCountingPadding", false, true, 4, 15, 17, 3, 1, 1, 1, 1, 0, 15, 0, 17, 0, 4},
        PoolCase{"averageNotCountingPadding", false, false, 4, 15, 17, 3, 1, 1, 1, 1, 3, 8, 0, 17, 1, 2},
        PoolCase{"averageCeilModePadAtEnd", false, true, 2, 14, 14, 3, 2, 0, 1, 1, 0, 7, 0, 7, 0, 2},
        PoolCase{"wideStrideOne", true, false, 2, 9, 70, 5, 1, 2, 2, 1, 1, 5, 3, 60, 0, 2},
        PoolCase{"dilated", true, false, 2, 20, 20, 3, 1, 2, 2, 2, 4, 10, 0, 20, 0, 2},
        PoolCase{"googlenetWindow", true, false, 3, 28, 28, 3, 1, 1, 1, 1, 0, 28, 5, 12, 0, 3},
        PoolCase{"averageTwoByTwo", false, false, 5, 8, 8, 2, 2, 0, 0, 1, 0, 4, 0, 4, 0, 5}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(PoolKernelTest, DeclinesBoxesLackingWhatTheTileReads) {
    std::mt19937 rng(4);
    const PoolCase p{"", true, false, 4, 16, 16, 3, 2, 1, 1, 1, 0, 8, 0, 8, 0, 4};
    const i64 padEnd[2] = {1, 1};
    Box y({1, 4, 8, 8}, {0, 0, 0, 0}, {1, 4, 8, 8}, rng);
    const std::vector<float> before = y.data;
    // A row short at the bottom, a column short at the right, a channel short.
    EXPECT_FALSE(runtime::fastPool2d(y.view, Box({1, 4, 16, 16}, {0, 0, 0, 0}, {1, 4, 15, 16}, rng).view,
                                     windowOf(p), true, false, padEnd));
    EXPECT_FALSE(runtime::fastPool2d(y.view, Box({1, 4, 16, 16}, {0, 0, 0, 0}, {1, 4, 16, 15}, rng).view,
                                     windowOf(p), true, false, padEnd));
    EXPECT_FALSE(runtime::fastPool2d(y.view, Box({1, 4, 16, 16}, {0, 1, 0, 0}, {1, 3, 16, 16}, rng).view,
                                     windowOf(p), true, false, padEnd));
    // A window with a zero stride.
    rt::Window2d bad = windowOf(p);
    bad.stride[1] = 0;
    EXPECT_FALSE(runtime::fastPool2d(y.view, Box::whole({1, 4, 16, 16}, rng).view, bad, true, false, padEnd));
    EXPECT_EQ(y.data, before);
}

} // namespace
} // namespace strata::test
