// The depthwise kernel (runtime/DepthwiseConv.h) against strata_rt's loop on output tiles cut
// along rows and columns, with the input box a tile's halo needs, over strides, dilations,
// paddings, kernel sizes and channel multipliers; planes big and small enough to take both of
// its vector loops. It reads nothing outside the input box and declines boxes that lack an
// input row, column or channel, a tap or a bias the tile reads.

#include "KernelBoxes.h"
#include "runtime/DepthwiseConv.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace strata::test {
namespace {

struct DepthwiseCase {
    const char* name;
    i64 n, c, multiplier, h, w, k, stride, pad, dilation;
    i64 row0, rows, col0, cols; // the output tile's rows and columns
    i64 ch0, chs;               // and output channels
};

i64 outputSize(i64 in, const DepthwiseCase& p) { return (in + 2 * p.pad - p.dilation * (p.k - 1) - 1) / p.stride + 1; }

// The input rows or columns [first, last] an output range reads, clipped to the tensor.
std::pair<i64, i64> reads(i64 out0, i64 outs, i64 in, const DepthwiseCase& p) {
    return {std::max<i64>(0, out0 * p.stride - p.pad),
            std::min<i64>(in - 1, (out0 + outs - 1) * p.stride - p.pad + (p.k - 1) * p.dilation)};
}

compiler::KernelCall callOf(const DepthwiseCase& p) {
    compiler::KernelCall call;
    call.kernel = compiler::Kernel::Conv2d;
    call.window = {p.k, p.k, p.stride, p.stride, p.pad, p.pad, p.dilation, p.dilation};
    call.group = p.c;
    return call;
}

class DepthwiseKernelTest : public ::testing::TestWithParam<DepthwiseCase> {};

TEST_P(DepthwiseKernelTest, MatchesTheLoopReadingOnlyItsInputBox) {
    const DepthwiseCase& p = GetParam();
    std::mt19937 rng(11);
    const i64 m = p.c * p.multiplier, oh = outputSize(p.h, p), ow = outputSize(p.w, p);
    ASSERT_LE(p.row0 + p.rows, oh);
    ASSERT_LE(p.col0 + p.cols, ow);
    const auto [r0, r1] = reads(p.row0, p.rows, p.h, p);
    const auto [c0, c1] = reads(p.col0, p.cols, p.w, p);
    const i64 firstChannel = p.ch0 / p.multiplier, channels = (p.ch0 + p.chs - 1) / p.multiplier - firstChannel + 1;
    Box x({p.n, p.c, p.h, p.w}, {0, firstChannel, r0, c0}, {p.n, channels, r1 - r0 + 1, c1 - c0 + 1}, rng);
    // The box inside NaN guards: a read outside it poisons the result.
    std::vector<float> guarded(x.data.size() + 256, std::numeric_limits<float>::quiet_NaN());
    std::copy(x.data.begin(), x.data.end(), guarded.begin() + 128);
    rt::View<float> xGuarded = x.view;
    xGuarded.data = guarded.data() + 128;

    Box w({m, 1, p.k, p.k}, {p.ch0, 0, 0, 0}, {p.chs, 1, p.k, p.k}, rng);
    Box b({m}, {p.ch0}, {p.chs}, rng);
    Box fast({p.n, m, oh, ow}, {0, p.ch0, p.row0, p.col0}, {p.n, p.chs, p.rows, p.cols}, rng);
    Box loop = fast;
    loop.view.data = loop.data.data();

    runtime::DepthwiseBuffers buffers;
    ASSERT_TRUE(runtime::depthwiseConv(fast.view, xGuarded, w.view, &b.view, callOf(p), p.multiplier, buffers));
    const rt::Window2d win{{p.k, p.k}, {p.stride, p.stride}, {p.pad, p.pad}, {p.dilation, p.dilation}};
    rt::conv2d(loop.view, x.view, w.view, &b.view, win, p.c);
    for (std::size_t i = 0; i < fast.data.size(); ++i) ASSERT_NEAR(fast.data[i], loop.data[i], 1e-4f) << "element " << i;
}

INSTANTIATE_TEST_SUITE_P(
    Tiles, DepthwiseKernelTest,
    ::testing::Values(DepthwiseCase{"whole3x3", 1, 5, 1, 9, 9, 3, 1, 1, 1, 0, 9, 0, 9, 0, 5},
                      DepthwiseCase{"rowAndColumnTile", 1, 6, 1, 14, 14, 3, 1, 1, 1, 3, 6, 5, 7, 1, 4},
                      DepthwiseCase{"stride2Tile", 1, 4, 1, 16, 15, 3, 2, 1, 1, 2, 4, 3, 5, 0, 4},
                      DepthwiseCase{"stride2Kernel5", 2, 3, 1, 13, 13, 5, 2, 2, 1, 0, 7, 0, 7, 0, 3},
                      DepthwiseCase{"stride3Dilation2", 1, 3, 1, 17, 19, 3, 3, 2, 2, 1, 3, 2, 4, 0, 3},
                      DepthwiseCase{"dilation2NoPad", 1, 2, 1, 12, 12, 3, 1, 0, 2, 0, 8, 1, 6, 0, 2},
                      DepthwiseCase{"multiplier", 2, 3, 2, 8, 8, 3, 1, 1, 1, 0, 8, 0, 8, 1, 4},
                      DepthwiseCase{"sevenBySevenPlanes", 1, 40, 1, 7, 7, 3, 1, 1, 1, 0, 7, 0, 7, 0, 40},
                      DepthwiseCase{"wideRowsBothLoops", 1, 2, 1, 6, 61, 3, 1, 1, 1, 0, 6, 0, 61, 0, 2}),
    [](const ::testing::TestParamInfo<DepthwiseCase>& info) { return std::string(info.param.name); });

// An input box one row short of what the tile reads: the kernel declines and writes nothing
// (the loop would read past the box).
TEST(DepthwiseKernel, DeclinesAnInputBoxMissingARowTheTileReads) {
    std::mt19937 rng(12);
    Box x({1, 2, 10, 10}, {0, 0, 2, 0}, {1, 2, 5, 10}, rng); // input rows 2..6 only
    Box w = Box::whole({2, 1, 3, 3}, rng);
    Box y({1, 2, 10, 10}, {0, 0, 2, 0}, {1, 2, 4, 10}, rng); // output rows 2..5 read input rows 1..6
    const std::vector<float> before = y.data;
    compiler::KernelCall call;
    call.window = {3, 3, 1, 1, 1, 1, 1, 1};
    call.group = 2;
    runtime::DepthwiseBuffers buffers;
    EXPECT_FALSE(runtime::depthwiseConv(y.view, x.view, w.view, nullptr, call, 1, buffers));
    EXPECT_EQ(y.data, before);
    // Through fastConv: declined too, so the caller runs the loop instead.
    runtime::Workspace workspace;
    EXPECT_FALSE(runtime::fastConv(y.view, x.view, w.view, nullptr, call, workspace));
}

TEST(DepthwiseKernel, DeclinesAnInputBoxMissingAColumnTheTileReads) {
    std::mt19937 rng(13);
    Box x({1, 1, 6, 10}, {0, 0, 0, 0}, {1, 1, 6, 9}, rng); // column 9 missing
    Box w = Box::whole({1, 1, 3, 3}, rng);
    Box y({1, 1, 6, 10}, {0, 0, 0, 5}, {1, 1, 6, 5}, rng); // output columns 5..9 read 4..9 (10 is padding)
    compiler::KernelCall call;
    call.window = {3, 3, 1, 1, 1, 1, 1, 1};
    call.group = 1;
    runtime::DepthwiseBuffers buffers;
    EXPECT_FALSE(runtime::depthwiseConv(y.view, x.view, w.view, nullptr, call, 1, buffers));
}

TEST(DepthwiseKernel, DeclinesAWindowWithoutStrideOrDilation) {
    std::mt19937 rng(14);
    Box x = Box::whole({1, 1, 5, 5}, rng);
    Box w = Box::whole({1, 1, 3, 3}, rng);
    Box y = Box::whole({1, 1, 5, 5}, rng);
    runtime::DepthwiseBuffers buffers;
    compiler::KernelCall call;
    call.group = 1;
    call.window = {3, 3, 0, 1, 1, 1, 1, 1};
    EXPECT_FALSE(runtime::depthwiseConv(y.view, x.view, w.view, nullptr, call, 1, buffers));
    call.window = {3, 3, 1, 1, 1, 1, 1, 0};
    EXPECT_FALSE(runtime::depthwiseConv(y.view, x.view, w.view, nullptr, call, 1, buffers));
}

TEST(DepthwiseKernel, DeclinesBoxesLackingAChannelOrATap) {
    std::mt19937 rng(15);
    Box w = Box::whole({4, 1, 3, 3}, rng);
    Box y = Box::whole({1, 4, 5, 5}, rng);
    compiler::KernelCall call;
    call.group = 4;
    call.window = {3, 3, 1, 1, 1, 1, 1, 1};
    runtime::DepthwiseBuffers buffers;
    Box threeChannels({1, 4, 5, 5}, {0, 0, 0, 0}, {1, 3, 5, 5}, rng); // input channel 3 missing
    EXPECT_FALSE(runtime::depthwiseConv(y.view, threeChannels.view, w.view, nullptr, call, 1, buffers));
    Box x = Box::whole({1, 4, 5, 5}, rng);
    Box twoTapRows({4, 1, 3, 3}, {0, 0, 0, 0}, {4, 1, 2, 3}, rng);
    EXPECT_FALSE(runtime::depthwiseConv(y.view, x.view, twoTapRows.view, nullptr, call, 1, buffers));
    Box threeBiases({4}, {1}, {3}, rng);
    EXPECT_FALSE(runtime::depthwiseConv(y.view, x.view, w.view, &threeBiases.view, call, 1, buffers));
    EXPECT_TRUE(runtime::depthwiseConv(y.view, x.view, w.view, nullptr, call, 1, buffers));
}

} // namespace
} // namespace strata::test

namespace strata::test {
namespace {

// fewChannelConv (a group-1 convolution of up to kFewChannels input channels: an RGB stem) on
// the same kind of tiles: rows, columns and a few of the output channels, with the input box the
// tile's halo needs inside NaN guards.
struct FewChannelCase {
    const char* name;
    i64 n, c, m, h, w, k, stride, pad, dilation;
    i64 row0, rows, col0, cols, ch0, chs;
};

class FewChannelConvTest : public ::testing::TestWithParam<FewChannelCase> {};

TEST_P(FewChannelConvTest, MatchesTheLoopReadingOnlyItsInputBox) {
    const FewChannelCase& p = GetParam();
    const DepthwiseCase geometry{p.name, p.n, p.c, 1, p.h, p.w, p.k, p.stride, p.pad, p.dilation,
                                 p.row0, p.rows, p.col0, p.cols, p.ch0, p.chs};
    std::mt19937 rng(21);
    const i64 oh = outputSize(p.h, geometry), ow = outputSize(p.w, geometry);
    ASSERT_LE(p.row0 + p.rows, oh);
    ASSERT_LE(p.col0 + p.cols, ow);
    const auto [r0, r1] = reads(p.row0, p.rows, p.h, geometry);
    const auto [c0, c1] = reads(p.col0, p.cols, p.w, geometry);
    Box x({p.n, p.c, p.h, p.w}, {0, 0, r0, c0}, {p.n, p.c, r1 - r0 + 1, c1 - c0 + 1}, rng);
    std::vector<float> guarded(x.data.size() + 256, std::numeric_limits<float>::quiet_NaN());
    std::copy(x.data.begin(), x.data.end(), guarded.begin() + 128);
    rt::View<float> xGuarded = x.view;
    xGuarded.data = guarded.data() + 128;
    Box w({p.m, p.c, p.k, p.k}, {p.ch0, 0, 0, 0}, {p.chs, p.c, p.k, p.k}, rng);
    Box b({p.m}, {p.ch0}, {p.chs}, rng);
    Box fast({p.n, p.m, oh, ow}, {0, p.ch0, p.row0, p.col0}, {p.n, p.chs, p.rows, p.cols}, rng);
    Box loop = fast;
    loop.view.data = loop.data.data();
    compiler::KernelCall call = callOf(geometry);
    call.group = 1;
    runtime::DepthwiseBuffers buffers;
    ASSERT_TRUE(runtime::fewChannelConv(fast.view, xGuarded, w.view, &b.view, call, buffers));
    const rt::Window2d win{{p.k, p.k}, {p.stride, p.stride}, {p.pad, p.pad}, {p.dilation, p.dilation}};
    rt::conv2d(loop.view, x.view, w.view, &b.view, win, 1);
    for (std::size_t i = 0; i < fast.data.size(); ++i)
        ASSERT_NEAR(fast.data[i], loop.data[i], 1e-4f) << "element " << i;
}

INSTANTIATE_TEST_SUITE_P(
    Tiles, FewChannelConvTest,
    ::testing::Values(FewChannelCase{"rgbStemStride2", 1, 3, 8, 17, 17, 3, 2, 1, 1, 0, 9, 0, 9, 0, 8},
                      FewChannelCase{"oneOutputChannelTile", 1, 3, 8, 16, 15, 3, 2, 1, 1, 2, 4, 1, 6, 5, 1},
                      FewChannelCase{"rowTileWithHalo", 2, 2, 5, 14, 13, 3, 1, 1, 1, 3, 5, 0, 13, 1, 3},
                      FewChannelCase{"kernel5Dilation2", 1, 4, 3, 19, 18, 5, 1, 2, 2, 1, 7, 2, 9, 0, 3},
                      FewChannelCase{"oneChannel7x7Stride3", 1, 1, 2, 23, 21, 7, 3, 3, 1, 0, 8, 1, 6, 0, 2}),
    [](const ::testing::TestParamInfo<FewChannelCase>& info) { return std::string(info.param.name); });

// More input channels than kFewChannels, or groups: declined, y untouched.
TEST(FewChannelConv, DeclinesManyChannelsAndGroups) {
    std::mt19937 rng(22);
    Box x = Box::whole({1, 8, 6, 6}, rng);
    Box w = Box::whole({2, 8, 3, 3}, rng);
    Box y = Box::whole({1, 2, 6, 6}, rng);
    const std::vector<float> before = y.data;
    compiler::KernelCall call;
    call.window = {3, 3, 1, 1, 1, 1, 1, 1};
    call.group = 1;
    runtime::DepthwiseBuffers buffers;
    EXPECT_FALSE(runtime::fewChannelConv(y.view, x.view, w.view, nullptr, call, buffers));
    Box wg = Box::whole({2, 4, 3, 3}, rng);
    call.group = 2;
    EXPECT_FALSE(runtime::fewChannelConv(y.view, x.view, wg.view, nullptr, call, buffers));
    EXPECT_EQ(y.data, before);
}

} // namespace
} // namespace strata::test
