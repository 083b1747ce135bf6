// A 1x1 convolution at one position (runtime/MatrixVectorConv.h), a squeeze-excite block's maps,
// as a matrix-vector product: an output-channel tile with a bias and a fused epilogue, in each
// layout pair, against strata_rt's loop; a box of two positions is left to the other kernels.

#include "runtime/MatrixVectorConv.h"

#include "KernelBoxes.h"
#include "runtime/ComputeKernels.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <random>

namespace strata::test {
namespace {

constexpr std::array<std::int64_t, 8> kPointwise{1, 1, 1, 1, 0, 0, 1, 1};

TEST(MatrixVectorConv, OnePositionComputesWhatTheLoopDoes) {
    std::mt19937 rng(41);
    const i64 k = 960;
    Box x = Box::whole({1, k, 1, 1}, rng);
    Box w({48, k, 1, 1}, {8, 0, 0, 0}, {40, k, 1, 1}, rng);
    Box b({48}, {8}, {40}, rng);
    Box tile({1, 48, 1, 1}, {0, 8, 0, 0}, {1, 40, 1, 1}, rng);
    Box loop = tile;
    loop.view.data = loop.data.data();
    rt::conv2d(loop.view, x.view, w.view, &b.view, rt::Window2d{{1, 1}, {1, 1}, {0, 0}, {1, 1}}, 1);
    for (float& v : loop.data) {
        v = std::clamp(v, 0.0f, 6.0f);
        v = v / (1 + std::exp(-v)); // SiLU
    }
    for (const auto& [xLayout, yLayout] : {std::pair{0, 0}, std::pair{compiler::kChannelsLast, 0},
                                           std::pair{0, compiler::kChannelsLast}}) {
        SCOPED_TRACE(fmt::format("x layout {} y layout {}", xLayout, yLayout));
        Box out = tile;
        out.view.data = out.data.data();
        auto compute = convCompute(out, x, w, &b, kPointwise, 1, xLayout, yLayout);
        compute.epilogue = {clipStep(out), siluStep(out)};
        std::size_t stepsDone = 0;
        ASSERT_TRUE(runtime::matrixVectorConv(compute, stepsDone));
        EXPECT_EQ(stepsDone, 2u); // both Maps run in the bias loop
        std::fill(out.data.begin(), out.data.end(), 0.0f);
        runtime::Workspace workspace;
        runtime::runCompute(compute, workspace); // as the runtime runs it
        expectNear(out.data, loop.data, 1e-4f);
    }
}

TEST(MatrixVectorConv, MorePositionsAreLeftToTheOtherKernels) {
    std::mt19937 rng(43);
    Box x = Box::whole({1, 16, 1, 2}, rng);
    Box w = Box::whole({8, 16, 1, 1}, rng);
    Box y = Box::whole({1, 8, 1, 2}, rng);
    const std::vector<float> before = y.data;
    auto compute = convCompute(y, x, w, nullptr, kPointwise, 1, 0, 0);
    std::size_t stepsDone = 0;
    EXPECT_FALSE(runtime::matrixVectorConv(compute, stepsDone));
    EXPECT_EQ(y.data, before); // nothing written
}

} // namespace
} // namespace strata::test
