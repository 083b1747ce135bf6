// oneDNN's convolutions against strata_rt's plain loop (the one the generated C++ runs, itself
// checked against the reference evaluator) on tiles: rows at the tensor's edges and inside it,
// input boxes holding more than the tile reads, output-channel tiles, strides, dilation,
// asymmetric windows, odd sizes, with and without bias, groups of several channels (whole and
// tiles of whole groups), and constant weights packed once.

#include "KernelBoxes.h"
#include "runtime/ComputeKernels.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <random>

namespace strata::test {
namespace {

struct Case {
    const char* name;
    i64 n, c, h, w, m, kh, kw, stride, pad, dilation;
    i64 rows0, rows, ch0,
        chs;       // the output tile: rows [rows0, rows0 + rows), channels [ch0, ch0 + chs)
    i64 extraRows; // rows the input box holds beyond the tile's halo (a later op's)
    bool bias;
    i64 group = 1;
};

class DnnlConvTest : public ::testing::TestWithParam<Case> {};

TEST_P(DnnlConvTest, MatchesTheLoop) {
    const Case& p = GetParam();
    std::mt19937 rng(11);
    const i64 oh = (p.h + 2 * p.pad - p.dilation * (p.kh - 1) - 1) / p.stride + 1;
    const i64 ow = (p.w + 2 * p.pad - p.dilation * (p.kw - 1) - 1) / p.stride + 1;
    ASSERT_LE(p.rows0 + p.rows, oh);
    const i64 first = std::max<i64>(0, p.rows0 * p.stride - p.pad - p.extraRows);
    const i64 last = std::min<i64>(p.h - 1, (p.rows0 + p.rows - 1) * p.stride - p.pad +
                                                (p.kh - 1) * p.dilation + p.extraRows);
    Box x({p.n, p.c, p.h, p.w}, {0, 0, first, 0}, {p.n, p.c, last - first + 1, p.w}, rng);
    const i64 groupChannels = p.c / p.group;
    Box w({p.m, groupChannels, p.kh, p.kw}, {p.ch0, 0, 0, 0}, {p.chs, groupChannels, p.kh, p.kw},
          rng);
    Box b({p.m}, {p.ch0}, {p.chs}, rng);
    Box fast({p.n, p.m, oh, ow}, {0, p.ch0, p.rows0, 0}, {p.n, p.chs, p.rows, ow}, rng);
    Box loop = fast;
    loop.view.data = loop.data.data();

    compiler::KernelCall call;
    call.kernel = compiler::Kernel::Conv2d;
    call.window = {p.kh, p.kw, p.stride, p.stride, p.pad, p.pad, p.dilation, p.dilation};
    call.group = p.group;
    runtime::DnnlConvCache cache;
    const rt::View<float>* bias = p.bias ? &b.view : nullptr;
    ASSERT_TRUE(runtime::dnnlConv(fast.view, x.view, w.view, bias, call, 7, cache));
    const rt::Window2d win{
        {p.kh, p.kw}, {p.stride, p.stride}, {p.pad, p.pad}, {p.dilation, p.dilation}};
    rt::conv2d(loop.view, x.view, w.view, bias, win, p.group);
    expectNear(fast.data, loop.data, 2e-4f);
}

INSTANTIATE_TEST_SUITE_P(
    Tiles, DnnlConvTest,
    ::testing::Values(
        Case{"whole3x3", 1, 16, 10, 10, 16, 3, 3, 1, 1, 1, 0, 10, 0, 16, 0, true},
        Case{"topRowsWithHalo", 1, 8, 12, 9, 6, 3, 3, 1, 1, 1, 0, 5, 0, 6, 0, true},
        Case{"middleRowsChannelTile", 1, 8, 12, 9, 20, 3, 3, 1, 1, 1, 4, 5, 5, 11, 0, true},
        Case{"bottomRows", 1, 8, 12, 9, 6, 3, 3, 1, 1, 1, 9, 3, 0, 6, 0, false},
        Case{"inputBoxHoldsMore", 1, 8, 15, 13, 8, 3, 3, 1, 1, 1, 5, 4, 0, 8, 2, true},
        Case{"stride2dilation2", 2, 4, 13, 11, 5, 3, 3, 2, 2, 2, 1, 3, 0, 5, 0, true},
        Case{"stem7x7stride2", 1, 3, 31, 29, 16, 7, 7, 2, 3, 1, 3, 7, 0, 16, 0, false},
        Case{"asymmetric1x5", 1, 6, 9, 17, 4, 1, 5, 1, 2, 1, 2, 4, 0, 4, 0, true},
        Case{"channelTileStride2", 1, 32, 14, 14, 48, 3, 3, 2, 1, 1, 2, 5, 16, 16, 0, true},
        Case{"oddChannels", 1, 37, 7, 7, 23, 3, 3, 1, 1, 1, 0, 7, 3, 19, 0, true},
        // Groups: RegNet's of 8 channels (stride 1 and 2), ResNeXt's of 4, a tile of whole
        // groups in the middle of the channels, rows with a halo, two images.
        Case{"groupsOf8", 1, 48, 14, 14, 48, 3, 3, 1, 1, 1, 0, 14, 0, 48, 0, true, 6},
        Case{"groupsOf8Stride2", 1, 48, 15, 15, 48, 3, 3, 2, 1, 1, 0, 8, 0, 48, 0, false, 6},
        Case{"groupsOf4", 2, 32, 9, 9, 32, 3, 3, 1, 1, 1, 0, 9, 0, 32, 0, true, 8},
        Case{"groupTileRowsWithHalo", 1, 64, 12, 12, 64, 3, 3, 1, 1, 1, 3, 5, 16, 32, 1, true, 8},
        Case{"groupsWideningOutputs", 1, 16, 8, 8, 32, 3, 3, 2, 1, 1, 0, 4, 8, 16, 0, true, 4}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

// SiLU stops the post-ops (strata_rt's sigmoid after the call is faster than oneDNN's swish):
// the activations before it are post-ops, it and what follows run after the call.
TEST(DnnlConv, SiluIsNoPostOp) {
    rt::View<float> y;
    y.rank = 4;
    rt::ConvPostOp posts[rt::kMaxConvPostOps];
    const rt::EpilogueStep clip{rt::Act::Clip, 0.0f, 6.0f}, silu{rt::Act::Silu},
        relu{rt::Act::Relu};
    const rt::EpilogueStep clipThenSilu[] = {clip, silu, relu};
    EXPECT_EQ(rt::convPostOps(y, clipThenSilu, 3, posts), 1);
    EXPECT_EQ(posts[0].eltwise, dnnl::algorithm::eltwise_clip);
    const rt::EpilogueStep siluFirst[] = {silu, clip};
    EXPECT_EQ(rt::convPostOps(y, siluFirst, 2, posts), 0);
    const rt::EpilogueStep clipThenRelu[] = {clip, relu};
    EXPECT_EQ(rt::convPostOps(y, clipThenRelu, 2, posts), 2);
}

// Constant weights are packed once per output-channel tile and kept: a second tile of other
// channels packs its own, and a call on the first tile again still matches the loop.
TEST(DnnlConv, ConstantWeightTilesArePackedPerTile) {
    std::mt19937 rng(12);
    Box x = Box::whole({1, 16, 8, 8}, rng);
    Box w = Box::whole({32, 16, 3, 3}, rng);
    compiler::KernelCall call;
    call.window = {3, 3, 1, 1, 1, 1, 1, 1};
    const rt::Window2d win{{3, 3}, {1, 1}, {1, 1}, {1, 1}};
    runtime::DnnlConvCache cache;
    for (i64 ch0 : {0, 16, 0}) {
        Box wTile({32, 16, 3, 3}, {ch0, 0, 0, 0}, {16, 16, 3, 3}, rng);
        std::copy(w.data.begin() + ch0 * 144, w.data.begin() + (ch0 + 16) * 144,
                  wTile.data.begin());
        Box fast({1, 32, 8, 8}, {0, ch0, 0, 0}, {1, 16, 8, 8}, rng);
        Box loop = fast;
        loop.view.data = loop.data.data();
        ASSERT_TRUE(runtime::dnnlConv(fast.view, x.view, wTile.view, nullptr, call, 3, cache));
        rt::conv2d(loop.view, x.view, wTile.view, nullptr, win, 1);
        expectNear(fast.data, loop.data, 2e-4f);
    }
}

// Tiles of output channels over one input box reorder it once, as long as its bytes stay the
// same; a changed byte reorders again. Every tile matches the loop.
TEST(DnnlConv, ChannelTilesReuseTheReorderedInputOfTheSameBytesOnly) {
    std::mt19937 rng(15);
    Box x = Box::whole({1, 16, 9, 9}, rng);
    Box w = Box::whole({32, 16, 3, 3}, rng);
    compiler::KernelCall call;
    call.window = {3, 3, 1, 1, 1, 1, 1, 1};
    const rt::Window2d win{{3, 3}, {1, 1}, {1, 1}, {1, 1}};
    runtime::DnnlConvCache cache;
    auto tile = [&](i64 ch0) {
        Box wTile({32, 16, 3, 3}, {ch0, 0, 0, 0}, {16, 16, 3, 3}, rng);
        std::copy(w.data.begin() + ch0 * 144, w.data.begin() + (ch0 + 16) * 144,
                  wTile.data.begin());
        Box fast({1, 32, 9, 9}, {0, ch0, 0, 0}, {1, 16, 9, 9}, rng);
        Box loop = fast;
        loop.view.data = loop.data.data();
        ASSERT_TRUE(runtime::dnnlConv(fast.view, x.view, wTile.view, nullptr, call, 5, cache));
        rt::conv2d(loop.view, x.view, wTile.view, nullptr, win, 1);
        expectNear(fast.data, loop.data, 2e-4f);
    };
    tile(0);
    EXPECT_EQ(cache.inputReordersSkipped(), 0u);
    tile(16);
    EXPECT_EQ(cache.inputReordersSkipped(), 1u);
    x.data[40] += 1.0f;
    tile(0);
    EXPECT_EQ(cache.inputReordersSkipped(), 1u);
}

// Weights that may change between calls (not a constant) are packed on every call.
TEST(DnnlConv, ChangingWeightsArePackedEveryCall) {
    std::mt19937 rng(13);
    Box x = Box::whole({1, 8, 6, 6}, rng);
    compiler::KernelCall call;
    call.window = {3, 3, 1, 1, 1, 1, 1, 1};
    const rt::Window2d win{{3, 3}, {1, 1}, {1, 1}, {1, 1}};
    runtime::DnnlConvCache cache;
    Box w = Box::whole({8, 8, 3, 3}, rng);
    for (int round = 0; round < 2; ++round) {
        for (float& v : w.data)
            v = -v + 0.25f * static_cast<float>(round);
        Box fast = Box::whole({1, 8, 6, 6}, rng);
        Box loop = fast;
        loop.view.data = loop.data.data();
        ASSERT_TRUE(runtime::dnnlConv(fast.view, x.view, w.view, nullptr, call, -1, cache));
        rt::conv2d(loop.view, x.view, w.view, nullptr, win, 1);
        expectNear(fast.data, loop.data, 2e-4f);
    }
}

// A tile of whole groups reads only its groups' input channels: an input box holding those alone
// (channels 16-31 of 48, for outputs 16-31 in groups of 8) is enough.
TEST(DnnlConv, GroupTilesReadOnlyTheirGroupsChannels) {
    std::mt19937 rng(16);
    Box x({1, 48, 10, 10}, {0, 16, 0, 0}, {1, 16, 10, 10}, rng);
    Box w({48, 8, 3, 3}, {16, 0, 0, 0}, {16, 8, 3, 3}, rng);
    Box fast({1, 48, 10, 10}, {0, 16, 0, 0}, {1, 16, 10, 10}, rng);
    Box loop = fast;
    loop.view.data = loop.data.data();
    compiler::KernelCall call;
    call.window = {3, 3, 1, 1, 1, 1, 1, 1};
    call.group = 6;
    runtime::DnnlConvCache cache;
    ASSERT_TRUE(runtime::dnnlConv(fast.view, x.view, w.view, nullptr, call, 4, cache));
    rt::conv2d(loop.view, x.view, w.view, nullptr, {{3, 3}, {1, 1}, {1, 1}, {1, 1}}, 6);
    expectNear(fast.data, loop.data, 2e-4f);
}

// What stays on the other kernels: 1x1 windows over row-major boxes (sgemm is as fast or faster
// there; between channels-last boxes oneDNN runs them, ChannelsLastConvTest), depthwise
// convolutions (a kernel of their own), tiles splitting a group, grouped convolutions over
// channels-last boxes, and input boxes lacking rows the tile reads.
TEST(DnnlConv, DeclinesWhatOtherKernelsRun) {
    std::mt19937 rng(14);
    runtime::DnnlConvCache cache;
    compiler::KernelCall pointwise;
    pointwise.window = {1, 1, 1, 1, 0, 0, 1, 1};
    Box x = Box::whole({1, 8, 6, 6}, rng);
    Box w1 = Box::whole({4, 8, 1, 1}, rng);
    Box y = Box::whole({1, 4, 6, 6}, rng);
    EXPECT_FALSE(runtime::dnnlConv(y.view, x.view, w1.view, nullptr, pointwise, 0, cache));

    compiler::KernelCall depthwise;
    depthwise.window = {3, 3, 1, 1, 1, 1, 1, 1};
    depthwise.group = 8;
    Box wd = Box::whole({8, 1, 3, 3}, rng);
    Box y8 = Box::whole({1, 8, 6, 6}, rng);
    EXPECT_FALSE(runtime::dnnlConv(y8.view, x.view, wd.view, nullptr, depthwise, 0, cache));

    compiler::KernelCall grouped; // 2 groups of 4 input and 4 output channels
    grouped.window = {3, 3, 1, 1, 1, 1, 1, 1};
    grouped.group = 2;
    Box wg({8, 4, 3, 3}, {2, 0, 0, 0}, {4, 4, 3, 3}, rng);
    Box splitTile({1, 8, 6, 6}, {0, 2, 0, 0}, {1, 4, 6, 6}, rng); // half of each group
    EXPECT_FALSE(runtime::dnnlConv(splitTile.view, x.view, wg.view, nullptr, grouped, 0, cache));
    Box wAll = Box::whole({8, 4, 3, 3}, rng);
    EXPECT_FALSE(runtime::dnnlConv(y8.view, x.view, wAll.view, nullptr, grouped, 0, cache, nullptr,
                                   nullptr, -1, -1));

    compiler::KernelCall window;
    window.window = {3, 3, 1, 1, 1, 1, 1, 1};
    Box w3 = Box::whole({4, 8, 3, 3}, rng);
    Box rowsOnly({1, 8, 6, 6}, {0, 0, 0, 0}, {1, 8, 3, 6},
                 rng); // rows 0-2; rows 0-3 of output 0-2 need row 3
    Box yTile({1, 4, 6, 6}, {0, 0, 0, 0}, {1, 4, 3, 6}, rng);
    const std::vector<float> before = yTile.data;
    EXPECT_FALSE(runtime::dnnlConv(yTile.view, rowsOnly.view, w3.view, nullptr, window, 0, cache));
    EXPECT_EQ(yTile.data, before); // nothing written
}

} // namespace
} // namespace strata::test
