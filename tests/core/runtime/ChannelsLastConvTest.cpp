// Channels-last pointwise and depthwise convolutions (runtime/ChannelsLastConv.h) and the layouts
// ChooseLayouts gives MobileNet-style blocks: the kernels against strata_rt's loop on boxes with
// halos, odd sizes, strides, dilation, 5x5 windows and channels that are not whole vectors; and
// inverted-residual chains compiled in row tiles, whose expansion writes channels-last for the
// depthwise convolution and whose projection reads it so, run against the reference evaluator.

#include "runtime/ChannelsLastConv.h"

#include "KernelBoxes.h"
#include "RunMatchesReference.h"
#include "TwoCoreTarget.h"
#include "compiler/Pipeline.h"
#include "runtime/ComputeKernels.h"
#include "runtime/LayoutKernels.h"
#include "schedule/Edits.h"
#include "schedule/Strategies.h"
#include "support/TestModels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <random>

namespace strata::test {
namespace {

struct DepthwiseCase {
    const char* name;
    i64 c, h, w;        // input
    i64 k, s, pad, dil; // window
    i64 rows0, rows;    // the tile's output rows
    i64 ch0, chs;       // its channels
    i64 extraRows;      // input rows beyond what the tile reads (a later op's halo)
    bool bias = true;
};

class ChannelsLastDepthwise : public ::testing::TestWithParam<DepthwiseCase> {};

TEST_P(ChannelsLastDepthwise, ComputesWhatTheLoopDoes) {
    const DepthwiseCase& p = GetParam();
    std::mt19937 rng(11);
    const i64 oh = (p.h + 2 * p.pad - p.dil * (p.k - 1) - 1) / p.s + 1;
    const i64 ow = (p.w + 2 * p.pad - p.dil * (p.k - 1) - 1) / p.s + 1;
    const i64 first = std::max<i64>(0, p.rows0 * p.s - p.pad - p.extraRows);
    const i64 last = std::min<i64>(p.h - 1, (p.rows0 + p.rows - 1) * p.s - p.pad +
                                                (p.k - 1) * p.dil + p.extraRows);
    Box x({1, p.c, p.h, p.w}, {0, p.ch0, first, 0}, {1, p.chs, last - first + 1, p.w}, rng);
    Box w({p.c, 1, p.k, p.k}, {p.ch0, 0, 0, 0}, {p.chs, 1, p.k, p.k}, rng);
    Box b({p.c}, {p.ch0}, {p.chs}, rng);
    Box fast({1, p.c, oh, ow}, {0, p.ch0, p.rows0, 0}, {1, p.chs, p.rows, ow}, rng);
    Box loop = fast;
    loop.view.data = loop.data.data();
    Box lastX = x;
    lastX.view.data = lastX.data.data();
    rt::reorder(lastX.view, 0, compiler::kChannelsLast);

    rt::conv2d(loop.view, x.view, w.view, p.bias ? &b.view : nullptr,
               rt::Window2d{{p.k, p.k}, {p.s, p.s}, {p.pad, p.pad}, {p.dil, p.dil}}, p.c);
    const std::array<std::int64_t, 8> window{p.k, p.k, p.s, p.s, p.pad, p.pad, p.dil, p.dil};
    // Channels-last in, either layout out (row-major for a reader that wants it: a store).
    for (const int yLayout : {compiler::kChannelsLast, 0}) {
        SCOPED_TRACE(yLayout == 0 ? "row-major output" : "channels-last output");
        Box out = fast;
        out.view.data = out.data.data();
        const auto compute = convCompute(out, lastX, w, p.bias ? &b : nullptr, window, p.c,
                                         compiler::kChannelsLast, yLayout);
        runtime::Workspace workspace;
        std::size_t stepsDone = 0;
        ASSERT_TRUE(runtime::channelsLastConv(compute, workspace, stepsDone));
        EXPECT_EQ(stepsDone, 0u);
        rt::reorder(out.view, yLayout, 0);
        expectNear(out.data, loop.data, 1e-5f);
    }
}

// A SiLU epilogue (then a Clip) on the same tiles: SiLU is fused into the kernel's span of
// columns whose taps are all inside, and the result is, bit for bit, the convolution followed by
// the SiLU and Clip maps over the whole box (and near the loop's).
TEST_P(ChannelsLastDepthwise, FusedSiluHasTheBitsOfAPassAfter) {
    const DepthwiseCase& p = GetParam();
    std::mt19937 rng(12);
    const i64 oh = (p.h + 2 * p.pad - p.dil * (p.k - 1) - 1) / p.s + 1;
    const i64 ow = (p.w + 2 * p.pad - p.dil * (p.k - 1) - 1) / p.s + 1;
    const i64 first = std::max<i64>(0, p.rows0 * p.s - p.pad - p.extraRows);
    const i64 last = std::min<i64>(p.h - 1, (p.rows0 + p.rows - 1) * p.s - p.pad +
                                                (p.k - 1) * p.dil + p.extraRows);
    Box x({1, p.c, p.h, p.w}, {0, p.ch0, first, 0}, {1, p.chs, last - first + 1, p.w}, rng);
    for (float& v : x.data)
        v *= 8.0f; // sums on both sides of SiLU's bend, some where it saturates
    Box w({p.c, 1, p.k, p.k}, {p.ch0, 0, 0, 0}, {p.chs, 1, p.k, p.k}, rng);
    Box b({p.c}, {p.ch0}, {p.chs}, rng);
    Box out({1, p.c, oh, ow}, {0, p.ch0, p.rows0, 0}, {1, p.chs, p.rows, ow}, rng);
    Box loop = out;
    loop.view.data = loop.data.data();
    rt::conv2d(loop.view, x.view, w.view, p.bias ? &b.view : nullptr,
               rt::Window2d{{p.k, p.k}, {p.s, p.s}, {p.pad, p.pad}, {p.dil, p.dil}}, p.c);
    for (float& v : loop.data)
        v = std::clamp(v / (1.0f + std::exp(-v)), 0.0f, 6.0f);
    rt::reorder(x.view, 0, compiler::kChannelsLast);
    const std::array<std::int64_t, 8> window{p.k, p.k, p.s, p.s, p.pad, p.pad, p.dil, p.dil};
    for (const int yLayout : {compiler::kChannelsLast, 0}) {
        SCOPED_TRACE(yLayout == 0 ? "row-major output" : "channels-last output");
        Box fused = out, after = out;
        fused.view.data = fused.data.data();
        after.view.data = after.data.data();
        runtime::Workspace workspace;
        std::size_t stepsDone = 0;
        auto compute = convCompute(fused, x, w, p.bias ? &b : nullptr, window, p.c,
                                   compiler::kChannelsLast, yLayout);
        compute.epilogue = {siluStep(fused), clipStep(fused)};
        ASSERT_TRUE(runtime::channelsLastConv(compute, workspace, stepsDone));
        EXPECT_EQ(stepsDone, 2u);
        const auto plain = convCompute(after, x, w, p.bias ? &b : nullptr, window, p.c,
                                       compiler::kChannelsLast, yLayout);
        ASSERT_TRUE(runtime::channelsLastConv(plain, workspace, stepsDone));
        EXPECT_EQ(stepsDone, 0u);
        runtime::runMap(after.view, after.view, siluStep(after).call);
        runtime::runMap(after.view, after.view, clipStep(after).call);
        ASSERT_EQ(
            std::memcmp(fused.data.data(), after.data.data(), fused.data.size() * sizeof(float)),
            0);
        rt::reorder(fused.view, yLayout, 0);
        expectNear(fused.data, loop.data, 1e-4f);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Tiles, ChannelsLastDepthwise,
    ::testing::Values(
        DepthwiseCase{"whole", 32, 9, 9, 3, 1, 1, 1, 0, 9, 0, 32, 0},
        DepthwiseCase{"topRowsWithHalo", 96, 14, 11, 3, 1, 1, 1, 0, 5, 0, 96, 0},
        DepthwiseCase{"middleRowsChannelTile", 80, 12, 9, 3, 1, 1, 1, 4, 5, 16, 48, 0},
        DepthwiseCase{"extraRows", 16, 12, 9, 3, 1, 1, 1, 4, 4, 0, 16, 2},
        DepthwiseCase{"stride2", 48, 15, 13, 3, 2, 1, 1, 2, 4, 0, 48, 0},
        DepthwiseCase{"fiveByFiveStride2", 64, 13, 13, 5, 2, 2, 1, 0, 7, 0, 64, 0},
        DepthwiseCase{"dilation2", 32, 11, 10, 3, 1, 2, 2, 3, 5, 0, 32, 0},
        DepthwiseCase{"oddChannelsNoBias", 21, 7, 7, 3, 1, 1, 1, 0, 7, 0, 21, 0, false},
        DepthwiseCase{"noPaddingSmallMap", 144, 4, 4, 3, 1, 0, 1, 0, 2, 0, 144, 0},
        DepthwiseCase{"sevenBySevenWindow", 16, 9, 9, 7, 1, 3, 1, 0, 9, 0, 16, 0},
        DepthwiseCase{"rowsOverSixteenColumns", 40, 5, 37, 3, 1, 1, 1, 1, 3, 0, 40, 0}),
    [](const ::testing::TestParamInfo<DepthwiseCase>& info) { return info.param.name; });

// A pointwise convolution reads and writes either layout: every combination computes what the
// loop does, on an input box with rows beyond the tile's and an output-channel tile.
TEST(ChannelsLastPointwise, EveryLayoutCombinationComputesWhatTheLoopDoes) {
    std::mt19937 rng(13);
    for (const auto& [xLayout, yLayout] :
         {std::pair{0, compiler::kChannelsLast}, std::pair{compiler::kChannelsLast, 0},
          std::pair{compiler::kChannelsLast, compiler::kChannelsLast}})
        for (const i64 k : {16, 40, 96}) {
            SCOPED_TRACE(fmt::format("x {} y {} k {}", xLayout, yLayout, k));
            Box x({1, k, 11, 7}, {0, 0, 2, 0}, {1, k, 7, 7}, rng);
            Box w({48, k, 1, 1}, {8, 0, 0, 0}, {24, k, 1, 1}, rng);
            Box b({48}, {8}, {24}, rng);
            Box fast({1, 48, 11, 7}, {0, 8, 3, 0}, {1, 24, 5, 7}, rng);
            Box loop = fast;
            loop.view.data = loop.data.data();
            Box laidX = x;
            laidX.view.data = laidX.data.data();
            rt::reorder(laidX.view, 0, xLayout);
            const auto compute =
                convCompute(fast, laidX, w, &b, {1, 1, 1, 1, 0, 0, 1, 1}, 1, xLayout, yLayout);
            runtime::Workspace workspace;
            std::size_t stepsDone = 0;
            ASSERT_TRUE(runtime::channelsLastConv(compute, workspace, stepsDone));
            rt::reorder(fast.view, yLayout, 0);
            rt::conv2d(loop.view, x.view, w.view, &b.view,
                       rt::Window2d{{1, 1}, {1, 1}, {0, 0}, {1, 1}}, 1);
            expectNear(fast.data, loop.data, 1e-4f);
        }
}

// Between channels-last boxes a pointwise convolution runs on oneDNN's 1x1 kernel with the bias,
// a Clip and a residual Add as post-ops: on an input box holding rows beyond the tile's (read as
// a box of the tile's rows), an output-channel tile, input channels that are not whole vectors,
// with and without the bias and the epilogue, it computes what the loop and the steps after it
// do.
TEST(ChannelsLastPointwise, BetweenChannelsLastBoxesRunsOnOneDnnWithItsEpilogue) {
    std::mt19937 rng(23);
    for (const i64 k : {80, 100, 136})
        for (const bool fused : {false, true}) {
            SCOPED_TRACE(fmt::format("k {} fused {}", k, fused));
            Box x({1, k, 11, 7}, {0, 0, 2, 0}, {1, k, 7, 7}, rng);
            Box w({48, k, 1, 1}, {8, 0, 0, 0}, {24, k, 1, 1}, rng);
            Box b({48}, {8}, {24}, rng);
            Box fast({1, 48, 11, 7}, {0, 8, 3, 0}, {1, 24, 5, 7}, rng);
            Box residual = fast; // another box of the output's tile, its own values
            for (float& v : residual.data)
                v = 2.0f * v;
            residual.view.data = residual.data.data();
            Box loop = fast;
            loop.view.data = loop.data.data();
            rt::conv2d(loop.view, x.view, w.view, fused ? &b.view : nullptr,
                       rt::Window2d{{1, 1}, {1, 1}, {0, 0}, {1, 1}}, 1);
            if (fused)
                for (std::size_t i = 0; i < loop.data.size(); ++i)
                    loop.data[i] = std::clamp(loop.data[i], 0.0f, 6.0f) + residual.data[i];

            Box laidX = x;
            laidX.view.data = laidX.data.data();
            rt::reorder(laidX.view, 0, compiler::kChannelsLast);
            rt::reorder(residual.view, 0, compiler::kChannelsLast);
            auto compute =
                convCompute(fast, laidX, w, fused ? &b : nullptr, {1, 1, 1, 1, 0, 0, 1, 1}, 1,
                            compiler::kChannelsLast, compiler::kChannelsLast);
            if (fused)
                compute.epilogue = {clipStep(fast), addStep(fast, residual)};
            runtime::Workspace workspace;
            std::size_t stepsDone = 0;
            ASSERT_TRUE(runtime::pointwiseConv(compute, workspace, stepsDone));
            EXPECT_EQ(stepsDone, fused ? 2u : 0u);
            rt::reorder(fast.view, compiler::kChannelsLast, 0);
            expectNear(fast.data, loop.data, 1e-4f);
        }
}

// strata_rt's row kernel (the generated C++'s too) fuses SiLU into the span of columns whose taps
// are all inside, where the channels are whole vectors: those columns hold SiLU of the sums, bit
// for bit what sigmoidRun makes of them after, and the edge columns the sums, for the caller's
// pass (siluRest). With channels that are not whole vectors nothing is fused.
TEST(ChannelsLastDepthwise, RowSumsFuseSiluIntoTheInsideColumns) {
    namespace dw = rt::depthwise_detail;
    for (const i64 c : {32, 21}) {
        SCOPED_TRACE(c);
        std::mt19937 rng(31);
        Box x({1, c, 5, 9}, {0, 0, 0, 0}, {1, c, 5, 9}, rng);
        for (float& v : x.data)
            v *= 4.0f;
        rt::reorder(x.view, 0, compiler::kChannelsLast);
        Box w({c, 1, 3, 3}, {0, 0, 0, 0}, {c, 1, 3, 3}, rng);
        Box b({c}, {0}, {c}, rng);
        Box y({1, c, 5, 9}, {0, 0, 0, 0}, {1, c, 5, 9}, rng);
        const rt::Window2d win{{3, 3}, {1, 1}, {1, 1}, {1, 1}};
        dw::Plan plan;
        ASSERT_TRUE(dw::plan(y.view, x.view, w.view, &b.view, win, c, plan));
        ASSERT_EQ(plan.inFirst, 1);
        ASSERT_EQ(plan.inEnd, 8);
        std::vector<float> taps, bias, sums(static_cast<std::size_t>(9 * c)), row = sums;
        dw::packTaps(plan, w.view, &b.view, taps, bias);
        EXPECT_FALSE(dw::rowSums(plan, y.view, x.view, 0, 2, sums.data(), taps.data(), bias.data(),
                                 dw::sumChannelTapsHere, dw::spanKernel, false));
        const bool fused = dw::rowSums(plan, y.view, x.view, 0, 2, row.data(), taps.data(),
                                       bias.data(), dw::sumChannelTapsHere, dw::spanKernel, true);
        EXPECT_EQ(fused, c % 16 == 0);
        std::vector<float> silu = sums;
        rt::runs::sigmoidRun(silu.data(), sums.data(), static_cast<i64>(sums.size()), true);
        for (i64 q = 0; q < 9; ++q) {
            const std::vector<float>& want = fused && q >= 1 && q < 8 ? silu : sums;
            for (i64 ch = 0; ch < c; ++ch) {
                const auto i = static_cast<std::size_t>(q * c + ch);
                ASSERT_EQ(std::memcmp(&row[i], &want[i], sizeof(float)), 0)
                    << "column " << q << " channel " << ch;
            }
        }
    }
}

// Constant taps are packed once per channel tile and kept in the workspace: two tiles of channels
// of one weight tensor, each run twice, pack two entries and compute what the loop does; weights
// that are not constant are packed per call and kept nowhere.
TEST(ChannelsLastDepthwise, ConstantTapsArePackedOncePerChannelTile) {
    std::mt19937 rng(37);
    Box x({1, 32, 6, 7}, {0, 0, 0, 0}, {1, 32, 6, 7}, rng);
    Box w({32, 1, 5, 5}, {0, 0, 0, 0}, {32, 1, 5, 5}, rng);
    Box b({32}, {0}, {32}, rng);
    Box whole({1, 32, 6, 7}, {0, 0, 0, 0}, {1, 32, 6, 7}, rng);
    Box loop = whole;
    loop.view.data = loop.data.data();
    rt::conv2d(loop.view, x.view, w.view, &b.view, rt::Window2d{{5, 5}, {1, 1}, {2, 2}, {1, 1}},
               32);
    rt::reorder(x.view, 0, compiler::kChannelsLast);
    runtime::Workspace workspace;
    for (const std::int64_t constant : {3, -1})
        for (const i64 c0 : {0, 16})
            for (int repeat = 0; repeat < 2; ++repeat) {
                SCOPED_TRACE(fmt::format("weights {} channels from {}", constant, c0));
                Box tile({1, 32, 6, 7}, {0, c0, 0, 0}, {1, 16, 6, 7}, rng);
                auto compute = convCompute(tile, x, w, &b, {5, 5, 1, 1, 2, 2, 1, 1}, 32,
                                           compiler::kChannelsLast, 0);
                compute.constantWeights = constant;
                std::size_t stepsDone = 0;
                ASSERT_TRUE(runtime::channelsLastConv(compute, workspace, stepsDone));
                EXPECT_EQ(workspace.channelsLast.packed.size(), constant >= 0 && c0 == 0 ? 1u : 2u);
                const auto first = loop.data.begin() + c0 * 42;
                expectNear(tile.data, std::vector<float>(first, first + 16 * 42), 1e-5f);
            }
}

// SiLU is no oneDNN post-op (strata_rt's sigmoid after the call is faster than its swish): a
// pointwise convolution with a Clip then a SiLU runs the Clip as a post-op and leaves the SiLU to
// the caller, whose pass gives what the loop does.
TEST(ChannelsLastPointwise, SiluRunsAfterTheKernel) {
    std::mt19937 rng(29);
    Box x({1, 24, 9, 13}, {0, 0, 0, 0}, {1, 24, 9, 13}, rng);
    Box w({96, 24, 1, 1}, {0, 0, 0, 0}, {96, 24, 1, 1}, rng);
    Box b({96}, {0}, {96}, rng);
    Box fast({1, 96, 9, 13}, {0, 0, 0, 0}, {1, 96, 9, 13}, rng);
    Box loop = fast;
    loop.view.data = loop.data.data();
    rt::conv2d(loop.view, x.view, w.view, &b.view, rt::Window2d{{1, 1}, {1, 1}, {0, 0}, {1, 1}}, 1);
    for (float& v : loop.data) {
        v = std::clamp(v, 0.0f, 6.0f);
        v = v / (1.0f + std::exp(-v));
    }
    rt::reorder(x.view, 0, compiler::kChannelsLast);
    auto compute = convCompute(fast, x, w, &b, {1, 1, 1, 1, 0, 0, 1, 1}, 1, compiler::kChannelsLast,
                               compiler::kChannelsLast);
    compute.epilogue = {clipStep(fast), siluStep(fast)};
    runtime::Workspace workspace;
    std::size_t stepsDone = 0;
    ASSERT_TRUE(runtime::pointwiseConv(compute, workspace, stepsDone));
    EXPECT_EQ(stepsDone, 1u);
    runtime::runMap(fast.view, fast.view, compute.epilogue[1].call);
    rt::reorder(fast.view, compiler::kChannelsLast, 0);
    expectNear(fast.data, loop.data, 1e-4f);
}

// Pointwise convolutions with a row-major box on either side run on oneDNN's channels-last 1x1
// kernel through copies where those are small beside the product: a row-major input is copied
// channels-last (rows beyond the tile's in its box), a row-major output written from a
// channels-last scratch box with the leading Clip as a post-op and the residual Add left to the
// caller; input channels that are not whole vectors, an output-channel tile.
TEST(ChannelsLastPointwise, RowMajorBoxesRunOnOneDnnThroughCopies) {
    std::mt19937 rng(29);
    for (const auto& [xLayout, yLayout] : {std::pair{0, 0}, std::pair{0, compiler::kChannelsLast},
                                           std::pair{compiler::kChannelsLast, 0}})
        for (const i64 k : {96, 100}) {
            SCOPED_TRACE(fmt::format("x {} y {} k {}", xLayout, yLayout, k));
            Box x({1, k, 11, 7}, {0, 0, 2, 0}, {1, k, 7, 7}, rng);
            Box w({136, k, 1, 1}, {8, 0, 0, 0}, {120, k, 1, 1}, rng);
            Box b({136}, {8}, {120}, rng);
            Box fast({1, 136, 11, 7}, {0, 8, 3, 0}, {1, 120, 5, 7}, rng);
            Box residual = fast;
            residual.view.data = residual.data.data();
            Box loop = fast;
            loop.view.data = loop.data.data();
            rt::conv2d(loop.view, x.view, w.view, &b.view,
                       rt::Window2d{{1, 1}, {1, 1}, {0, 0}, {1, 1}}, 1);
            for (std::size_t i = 0; i < loop.data.size(); ++i)
                loop.data[i] = std::clamp(loop.data[i], 0.0f, 6.0f) + residual.data[i];

            Box laidX = x;
            laidX.view.data = laidX.data.data();
            rt::reorder(laidX.view, 0, xLayout);
            rt::reorder(residual.view, 0, yLayout);
            auto compute =
                convCompute(fast, laidX, w, &b, {1, 1, 1, 1, 0, 0, 1, 1}, 1, xLayout, yLayout);
            compute.epilogue = {clipStep(fast), addStep(fast, residual)};
            runtime::Workspace workspace;
            std::size_t stepsDone = 0;
            ASSERT_TRUE(runtime::pointwiseConv(compute, workspace, stepsDone));
            EXPECT_EQ(stepsDone, yLayout == 0 ? 1u : 2u);
            if (stepsDone == 1) // the Add, on boxes of one layout
                for (std::size_t i = 0; i < fast.data.size(); ++i)
                    fast.data[i] += residual.data[i];
            rt::reorder(fast.view, yLayout, 0);
            expectNear(fast.data, loop.data, 1e-4f);
        }
}

// A squeeze-excite's product on a 1x1 map, one whose copies would cost more than oneDNN's
// kernel gains (an input of 144 channels into 24), and a row-major one of 196 positions (wide
// enough for sgemm) stay on sgemm.
TEST(ChannelsLastPointwise, SmallProductsAndCostlyCopiesStayOnSgemm) {
    std::mt19937 rng(31);
    Box x1 = Box::whole({1, 48, 1, 1}, rng);
    Box w1 = Box::whole({576, 48, 1, 1}, rng);
    Box y1 = Box::whole({1, 576, 1, 1}, rng);
    Box x2 = Box::whole({1, 144, 14, 14}, rng);
    Box w2 = Box::whole({24, 144, 1, 1}, rng);
    Box y2 = Box::whole({1, 24, 14, 14}, rng);
    Box x3 = Box::whole({1, 256, 14, 14}, rng);
    Box w3 = Box::whole({128, 256, 1, 1}, rng);
    Box y3 = Box::whole({1, 128, 14, 14}, rng);
    runtime::Workspace workspace;
    std::size_t stepsDone = 0;
    EXPECT_FALSE(runtime::pointwiseConv(
        convCompute(y1, x1, w1, nullptr, {1, 1, 1, 1, 0, 0, 1, 1}, 1, 0, 0), workspace, stepsDone));
    EXPECT_FALSE(runtime::pointwiseConv(
        convCompute(y3, x3, w3, nullptr, {1, 1, 1, 1, 0, 0, 1, 1}, 1, 0, 0), workspace, stepsDone));
    EXPECT_FALSE(runtime::pointwiseConv(
        convCompute(y2, x2, w2, nullptr, {1, 1, 1, 1, 0, 0, 1, 1}, 1, 0, 0), workspace, stepsDone));
}

// Boxes the kernels do not take are left to the caller, untouched: a depthwise convolution with
// a row-major input, a strided 1x1 window, an input box lacking input channels.
TEST(ChannelsLastConv, DeclinesWhatItDoesNotRun) {
    std::mt19937 rng(17);
    Box x = Box::whole({1, 16, 6, 6}, rng);
    Box dw({16, 1, 3, 3}, {0, 0, 0, 0}, {16, 1, 3, 3}, rng);
    Box y = Box::whole({1, 16, 6, 6}, rng);
    const std::vector<float> before = y.data;
    runtime::Workspace workspace;
    std::size_t stepsDone = 0;
    EXPECT_FALSE(runtime::channelsLastConv(
        convCompute(y, x, dw, nullptr, {3, 3, 1, 1, 1, 1, 1, 1}, 16, 0, compiler::kChannelsLast),
        workspace, stepsDone));
    Box pw = Box::whole({16, 16, 1, 1}, rng);
    Box half = Box::whole({1, 16, 3, 3}, rng);
    EXPECT_FALSE(runtime::channelsLastConv(
        convCompute(half, x, pw, nullptr, {1, 1, 2, 2, 0, 0, 1, 1}, 1, 0, compiler::kChannelsLast),
        workspace, stepsDone));
    Box someChannels({1, 16, 6, 6}, {0, 0, 0, 0}, {1, 8, 6, 6}, rng);
    EXPECT_FALSE(runtime::channelsLastConv(convCompute(y, someChannels, pw, nullptr,
                                                       {1, 1, 1, 1, 0, 0, 1, 1}, 1,
                                                       compiler::kChannelsLast, 0),
                                           workspace, stepsDone));
    EXPECT_EQ(y.data, before);
}

// The runtime's reorder instruction between row-major and channels-last boxes puts every element
// where strata_rt's reorder does, and back, on boxes of two batch elements and channels that are
// not whole vectors.
TEST(ChannelsLastReorder, PlacesEveryElementAsStrataRtDoes) {
    std::mt19937 rng(19);
    for (const auto& full : {std::vector<i64>{2, 21, 5, 7}, std::vector<i64>{1, 48, 9, 11}}) {
        Box box = Box::whole(full, rng);
        const std::vector<float> plain = box.data;
        Box expected = box;
        expected.view.data = expected.data.data();
        rt::reorder(expected.view, 0, compiler::kChannelsLast);
        runtime::PreparedCompute p;
        p.call.kernel = compiler::Kernel::Reorder;
        p.call.inputBlock = 0;
        p.call.outputBlock = compiler::kChannelsLast;
        p.output = bytes(box.view);
        runtime::runReorder(p);
        EXPECT_EQ(box.data, expected.data);
        std::swap(p.call.inputBlock, p.call.outputBlock);
        runtime::runReorder(p);
        EXPECT_EQ(box.data, plain);
    }
}

// An inverted-residual block: X[1, C, S, S] -> 1x1 expansion (C -> M) -> activation ->
// depthwise KxK (stride, dilation) -> activation -> 1x1 projection (M -> C) [-> + X].
struct Block {
    const char* name;
    int channels, expanded, size, kernel, stride, dilation;
    const char* activation; // ONNX text making `out` from `in`
    bool residual;
    int tileRows;
    bool projection = true; // without: the depthwise convolution's activation is the output
};

std::shared_ptr<const ir::Graph> graphFor(const Block& b) {
    const int pad = b.dilation * (b.kernel - 1) / 2;
    const int o = (b.size + 2 * pad - b.dilation * (b.kernel - 1) - 1) / b.stride + 1;
    auto act = [&](const char* in, const char* out) {
        return fmt::format(fmt::runtime(b.activation), fmt::arg("in", in), fmt::arg("out", out));
    };
    const std::string text = fmt::format(
        "<ir_version: 8, opset_import: [\"\" : 17]>\n"
        "g (float[1, {0}, {2}, {2}] X) => (float[1, {16}, {3}, {3}] Z)\n"
        "<float[{1}, {0}, 1, 1] W1 = {{{4}}}, float[{1}] B1 = {{{5}}}, float[{1}, 1, {6}, {6}] W2 "
        "= {{{7}}}, float[{1}] B2 = {{{5}}}, float[{0}, {1}, 1, 1] W3 = {{{8}}}, float[{0}] B3 = "
        "{{{9}}}, float L = {{0.0}}, float H = {{6.0}}> {{\n"
        "    E = Conv (X, W1, B1)\n"
        "    {10}\n"
        "    D = Conv <group = {1}, kernel_shape = [{6}, {6}], pads = [{11}, {11}, {11}, {11}], "
        "strides = [{12}, {12}], dilations = [{13}, {13}]> (F, W2, B2)\n"
        "    {14}\n"
        "    {15}\n"
        "}}\n",
        b.channels, b.expanded, b.size, o,
        patternValues(std::int64_t{b.expanded} * b.channels, 0.05f),
        patternValues(b.expanded, 0.05f), b.kernel,
        patternValues(std::int64_t{b.expanded} * b.kernel * b.kernel, 0.1f),
        patternValues(std::int64_t{b.channels} * b.expanded, 0.03f),
        patternValues(b.channels, 0.05f), act("E", "F"), pad, b.stride, b.dilation,
        act("D", b.projection ? "G" : "Z"),
        !b.projection ? ""
        : b.residual  ? "P = Conv (G, W3, B3)\n    Z = Add (P, X)"
                      : "P = Conv (G, W3, B3)\n    Z = Identity (P)",
        b.projection ? b.channels : b.expanded);
    auto m = importText(text);
    EXPECT_TRUE(m) << joined(m.diagnostics()) << "\n" << text;
    return m ? m->graph : nullptr;
}

// fuse-max's one block, in tiles of `rows` output rows on both cores (the expansion and the
// depthwise convolution then compute halo rows).
schedule::Schedule inRowTiles(const ir::Graph& g, const target::Target& t, int rows) {
    schedule::Schedule s =
        schedule::makeSchedule(g, t, schedule::Strategy::FuseMax, {.mp = 2, .buffering = 1});
    ir::Shape tile = g.value(g.outputs[0]).shape;
    tile[2] = rows;
    auto edited = schedule::setTile(s, g, s.blocks.front().id, schedule::TileSpec{tile});
    EXPECT_TRUE(edited) << joined(edited.diagnostics());
    return edited ? std::move(edited).value() : s;
}

class InvertedResidual : public ::testing::TestWithParam<Block> {};

TEST_P(InvertedResidual, KeepsTheExpandedBoxChannelsLastAndMatchesTheReference) {
    const Block& b = GetParam();
    auto g = graphFor(b);
    ASSERT_TRUE(g);
    target::Target t = twoCoreTarget("hostlike", 512 * 1024);
    t.channelGranule = 16;
    auto compiled = compiler::compile(*g, t, inRowTiles(*g, t, b.tileRows));
    ASSERT_TRUE(compiled) << joined(compiled.diagnostics());
    const compiler::Program& p = compiled->program;
    std::size_t depthwise = 0, reorders = 0;
    for (const compiler::Instruction& in : p.instructions) {
        const auto* c = std::get_if<compiler::Compute>(&in.body);
        if (!c)
            continue;
        reorders += c->isReorder();
        if (c->opType != "Conv" || g->op(in.from.op).name.empty())
            continue;
        const std::string& value = g->value(c->inputs[0].value).name;
        if (value == "F") { // the depthwise convolution reads the expansion's activation
            ++depthwise;
            EXPECT_EQ(c->inputs[0].channelBlock, compiler::kChannelsLast);
            // Without a projection its output is stored: it writes that row-major itself.
            EXPECT_EQ(c->outputs[0].channelBlock, b.projection ? compiler::kChannelsLast : 0);
        } else if (value == "G") { // the projection reads it channels-last, writes row-major
            EXPECT_EQ(c->inputs[0].channelBlock, compiler::kChannelsLast);
            EXPECT_EQ(c->outputs[0].channelBlock, 0);
        }
    }
    EXPECT_GT(depthwise, 0u);
    EXPECT_EQ(reorders, 0u) << "the chain needs no reorder";
    test::expectRunMatchesReference(p, t, *g);
}

constexpr const char* kRelu6 = "{out} = Clip ({in}, L, H)";
constexpr const char* kRelu = "{out} = Relu ({in})";
constexpr const char* kHardSwish = "{out} = HardSwish ({in})";

INSTANTIATE_TEST_SUITE_P(
    Blocks, InvertedResidual,
    ::testing::Values(Block{"relu6Residual", 16, 96, 14, 3, 1, 1, kRelu6, true, 4},
                      Block{"stride2", 24, 144, 15, 3, 2, 1, kRelu, false, 3},
                      Block{"fiveByFive", 16, 48, 12, 5, 1, 1, kHardSwish, true, 5},
                      Block{"dilation2", 16, 32, 13, 3, 1, 2, kRelu6, false, 4},
                      Block{"oddMap", 8, 64, 9, 3, 1, 1, kRelu6, true, 9},
                      Block{"depthwiseStored", 16, 48, 14, 3, 1, 1, kRelu6, false, 4, false},
                      Block{"depthwiseStoredStride2", 24, 32, 15, 5, 2, 1, kHardSwish, false, 3,
                            false}),
    [](const ::testing::TestParamInfo<Block>& info) { return info.param.name; });

} // namespace
} // namespace strata::test
