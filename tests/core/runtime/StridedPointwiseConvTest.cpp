// Strided pointwise convolutions (runtime/StridedPointwiseConv.h) on oneDNN's 1x1 kernel over
// their gathered positions, against strata_rt's loop: a row tile of a box holding rows and
// columns the window skips (an odd-sized map, as ResNet's downsampling projections load), unequal
// strides, each layout pair, an output-channel tile, input channels that are not whole vectors,
// and a fused epilogue.

#include "runtime/StridedPointwiseConv.h"

#include "KernelBoxes.h"
#include "runtime/ComputeKernels.h"

#include <algorithm>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <random>

namespace strata::test {
namespace {

struct StridedCase {
    i64 h, w, sh, sw; // input map and strides
    i64 rows0, rows;  // the tile's output rows
    i64 k;            // input channels
};

// y = clip(conv(x, w) + b, 0, 6) + residual over the tile, every layout pair: the kernel's result
// (the Add run after it where it leaves it to the caller) matches the loop's.
void expectStridedMatchesLoop(const StridedCase& c, std::mt19937& rng) {
    const i64 oh = (c.h - 1) / c.sh + 1, ow = (c.w - 1) / c.sw + 1;
    // The input box from the tile's first input row to the map's last, as a load covers the
    // window's span: rows and columns it skips included.
    const i64 first = c.rows0 * c.sh;
    Box x({1, c.k, c.h, c.w}, {0, 0, first, 0}, {1, c.k, c.h - first, c.w}, rng);
    Box w({136, c.k, 1, 1}, {8, 0, 0, 0}, {120, c.k, 1, 1}, rng);
    Box b({136}, {8}, {120}, rng);
    Box tile({1, 136, oh, ow}, {0, 8, c.rows0, 0}, {1, 120, c.rows, ow}, rng);
    Box loop = tile;
    loop.view.data = loop.data.data();
    Box residual = tile;
    residual.view.data = residual.data.data();
    rt::conv2d(loop.view, x.view, w.view, &b.view,
               rt::Window2d{{1, 1}, {c.sh, c.sw}, {0, 0}, {1, 1}}, 1);
    for (std::size_t i = 0; i < loop.data.size(); ++i)
        loop.data[i] = std::clamp(loop.data[i], 0.0f, 6.0f) + residual.data[i];

    for (const auto& [xLayout, yLayout] :
         {std::pair{0, 0}, std::pair{0, compiler::kChannelsLast},
          std::pair{compiler::kChannelsLast, 0},
          std::pair{compiler::kChannelsLast, compiler::kChannelsLast}}) {
        SCOPED_TRACE(fmt::format("x layout {} y layout {}", xLayout, yLayout));
        Box laidX = x, out = tile, laidResidual = residual;
        laidX.view.data = laidX.data.data();
        out.view.data = out.data.data();
        laidResidual.view.data = laidResidual.data.data();
        rt::reorder(laidX.view, 0, xLayout);
        rt::reorder(laidResidual.view, 0, yLayout);
        auto compute =
            convCompute(out, laidX, w, &b, {1, 1, c.sh, c.sw, 0, 0, 1, 1}, 1, xLayout, yLayout);
        compute.epilogue = {clipStep(out), addStep(out, laidResidual)};
        runtime::Workspace workspace;
        std::size_t stepsDone = 0;
        ASSERT_TRUE(runtime::stridedPointwiseConv(compute, workspace, stepsDone));
        // A row-major output gets the Clip as a post-op on its channels-last scratch box; the
        // Add is the caller's.
        EXPECT_EQ(stepsDone, yLayout == 0 ? 1u : 2u);
        if (stepsDone == 1)
            for (std::size_t i = 0; i < out.data.size(); ++i)
                out.data[i] += laidResidual.data[i];
        rt::reorder(out.view, yLayout, 0);
        expectNear(out.data, loop.data, 1e-4f);
    }
}

TEST(StridedPointwiseConv, GatheredPositionsComputeWhatTheLoopDoes) {
    std::mt19937 rng(37);
    for (const StridedCase& c : {StridedCase{13, 13, 2, 2, 0, 7, 96},  // ResNet's odd 13x13 box
                                 StridedCase{14, 14, 2, 2, 2, 4, 100}, // a middle row tile
                                 StridedCase{11, 16, 3, 2, 1, 3, 72}}) {
        SCOPED_TRACE(fmt::format("{}x{} stride {}x{} rows {}+{} k {}", c.h, c.w, c.sh, c.sw,
                                 c.rows0, c.rows, c.k));
        expectStridedMatchesLoop(c, rng);
    }
}

// Left to the im2col + sgemm kernel, untouched: a stride-1 window (ChannelsLastConv.h runs it), a
// padded one, a grouped one, a row-major output of 128 positions or more (sgemm's wide products)
// and a product of too few multiply-adds.
TEST(StridedPointwiseConv, DeclinesWhatItDoesNotRun) {
    std::mt19937 rng(41);
    Box x = Box::whole({1, 64, 32, 32}, rng);
    Box w = Box::whole({64, 64, 1, 1}, rng);
    Box half = Box::whole({1, 64, 16, 16}, rng);
    Box same = Box::whole({1, 64, 32, 32}, rng);
    Box smallX = Box::whole({1, 64, 8, 8}, rng);
    Box smallW = Box::whole({8, 64, 1, 1}, rng);
    Box smallY = Box::whole({1, 8, 4, 4}, rng);
    Box grouped = Box::whole({64, 32, 1, 1}, rng);
    const std::vector<float> before = half.data;
    runtime::Workspace workspace;
    std::size_t stepsDone = 0;
    auto declines = [&](const runtime::PreparedCompute& p) {
        EXPECT_FALSE(runtime::stridedPointwiseConv(p, workspace, stepsDone));
    };
    declines(convCompute(same, x, w, nullptr, {1, 1, 1, 1, 0, 0, 1, 1}, 1, 0, 0));
    declines(convCompute(half, x, w, nullptr, {1, 1, 2, 2, 1, 1, 1, 1}, 1, 0, 0));
    declines(convCompute(half, x, grouped, nullptr, {1, 1, 2, 2, 0, 0, 1, 1}, 2, 0, 0));
    declines(convCompute(half, x, w, nullptr, {1, 1, 2, 2, 0, 0, 1, 1}, 1, 0, 0));
    declines(convCompute(smallY, smallX, smallW, nullptr, {1, 1, 2, 2, 0, 0, 1, 1}, 1, 0, 0));
    EXPECT_EQ(half.data, before);
}

} // namespace
} // namespace strata::test
