// The runtime's OpenBLAS and direct kernels against strata_rt's plain loops (the ones the
// generated C++ runs, themselves checked against the reference evaluator) on tiles: partial
// output boxes, input boxes with halos, grouped, depthwise, strided, dilated and padded windows,
// transposed and broadcast matrix products.

#include "KernelBoxes.h"
#include "runtime/Blas.h"
#include "runtime/ComputeKernels.h"

#include <gtest/gtest.h>
#include <random>

namespace strata::test {
namespace {

struct ConvCase {
    const char* name;
    i64 n, c, h, w, m, group, k, stride, pad, dilation;
    i64 rows0, rows, ch0,
        chs; // the output tile: rows [rows0, rows0 + rows), channels [ch0, ch0 + chs)
};

class FastConvTest : public ::testing::TestWithParam<ConvCase> {};

TEST_P(FastConvTest, MatchesTheLoop) {
    const ConvCase& p = GetParam();
    std::mt19937 rng(3);
    const i64 oh = (p.h + 2 * p.pad - p.dilation * (p.k - 1) - 1) / p.stride + 1;
    const i64 ow = (p.w + 2 * p.pad - p.dilation * (p.k - 1) - 1) / p.stride + 1;
    ASSERT_LE(p.rows0 + p.rows, oh);
    // The input rows the tile reads (its halo), clipped to the tensor.
    const i64 first = std::max<i64>(0, p.rows0 * p.stride - p.pad);
    const i64 last =
        std::min<i64>(p.h - 1, (p.rows0 + p.rows - 1) * p.stride - p.pad + (p.k - 1) * p.dilation);
    Box x({p.n, p.c, p.h, p.w}, {0, 0, first, 0}, {p.n, p.c, last - first + 1, p.w}, rng);
    Box w({p.m, p.c / p.group, p.k, p.k}, {p.ch0, 0, 0, 0}, {p.chs, p.c / p.group, p.k, p.k}, rng);
    Box b({p.m}, {p.ch0}, {p.chs}, rng);
    Box fast({p.n, p.m, oh, ow}, {0, p.ch0, p.rows0, 0}, {p.n, p.chs, p.rows, ow}, rng);
    Box loop = fast;
    loop.view.data = loop.data.data();

    compiler::KernelCall call;
    call.kernel = compiler::Kernel::Conv2d;
    call.window = {p.k, p.k, p.stride, p.stride, p.pad, p.pad, p.dilation, p.dilation};
    call.group = p.group;
    runtime::Workspace workspace;
    ASSERT_TRUE(runtime::fastConv(fast.view, x.view, w.view, &b.view, call, workspace));
    const rt::Window2d win{
        {p.k, p.k}, {p.stride, p.stride}, {p.pad, p.pad}, {p.dilation, p.dilation}};
    rt::conv2d(loop.view, x.view, w.view, &b.view, win, p.group);
    expectNear(fast.data, loop.data, 1e-4f);
}

INSTANTIATE_TEST_SUITE_P(
    Windows, FastConvTest,
    ::testing::Values(ConvCase{"plain3x3", 1, 8, 10, 10, 16, 1, 3, 1, 1, 1, 0, 10, 0, 16},
                      ConvCase{"rowTileWithHalo", 1, 8, 12, 9, 6, 1, 3, 1, 1, 1, 4, 5, 2, 3},
                      ConvCase{"stride2dilation2", 2, 4, 13, 11, 5, 1, 3, 2, 2, 2, 1, 3, 0, 5},
                      ConvCase{"pointwise", 1, 16, 7, 7, 8, 1, 1, 1, 0, 1, 2, 3, 0, 8},
                      ConvCase{"pointwiseWholeRows", 1, 16, 7, 7, 8, 1, 1, 1, 0, 1, 0, 7, 0, 8},
                      ConvCase{"grouped", 1, 8, 9, 9, 12, 4, 3, 1, 1, 1, 0, 9, 3, 7},
                      ConvCase{"groupedWide", 1, 8, 16, 16, 12, 4, 3, 1, 1, 1, 0, 16, 0,
                               12}, // oneDNN's sgemm
                      ConvCase{"pointwiseWide", 1, 16, 16, 16, 8, 1, 1, 1, 0, 1, 2, 12, 0, 8},
                      ConvCase{"depthwise", 1, 6, 11, 11, 6, 6, 3, 1, 1, 1, 3, 4, 1, 4},
                      ConvCase{"depthwiseStride2", 1, 6, 12, 12, 6, 6, 5, 2, 2, 1, 0, 6, 0, 6},
                      ConvCase{"depthwiseMultiplier", 1, 4, 8, 8, 8, 4, 3, 1, 0, 1, 0, 6, 0, 8}),
    [](const ::testing::TestParamInfo<ConvCase>& info) { return std::string(info.param.name); });

TEST(FastConv, PointwiseReadsARowTileOutOfALargerInputBox) {
    std::mt19937 rng(4);
    Box x({1, 6, 9, 5}, {0, 0, 1, 0}, {1, 6, 7, 5}, rng); // rows 1..7: more than the tile needs
    Box w = Box::whole({4, 6, 1, 1}, rng);
    Box fast({1, 4, 9, 5}, {0, 0, 3, 0}, {1, 4, 3, 5}, rng);
    Box loop = fast;
    loop.view.data = loop.data.data();
    compiler::KernelCall call;
    call.window = {1, 1, 1, 1, 0, 0, 1, 1};
    runtime::Workspace workspace;
    ASSERT_TRUE(runtime::fastConv(fast.view, x.view, w.view, nullptr, call, workspace));
    EXPECT_TRUE(workspace.columns.empty()); // no im2col copy
    rt::conv2d(loop.view, x.view, w.view, nullptr, rt::Window2d{{1, 1}, {1, 1}, {0, 0}, {1, 1}}, 1);
    expectNear(fast.data, loop.data, 1e-4f);
}

// Tiles of output channels over one input box: the second tile uses the first one's columns, as
// long as the input's layout and bytes are the same; a changed byte or another row tile gathers
// again. Every tile matches the loop.
TEST(FastConv, TilesOfOutputChannelsReuseColumnsOfTheSameInputOnly) {
    std::mt19937 rng(6);
    Box x = Box::whole({1, 8, 7, 7}, rng);
    Box w = Box::whole({16, 8, 3, 3}, rng);
    compiler::KernelCall call;
    call.window = {3, 3, 1, 1, 1, 1, 1, 1};
    const rt::Window2d win{{3, 3}, {1, 1}, {1, 1}, {1, 1}};
    runtime::Workspace workspace;
    // Output channels [ch0, ch0 + 8) on rows [row0, row0 + rows), checked against the loop.
    auto tile = [&](i64 ch0, i64 row0, i64 rows) {
        Box fast({1, 16, 7, 7}, {0, ch0, row0, 0}, {1, 8, rows, 7}, rng);
        Box loop = fast;
        loop.view.data = loop.data.data();
        Box wTile({16, 8, 3, 3}, {ch0, 0, 0, 0}, {8, 8, 3, 3}, rng);
        std::copy(w.data.begin() + ch0 * 72, w.data.begin() + (ch0 + 8) * 72, wTile.data.begin());
        ASSERT_TRUE(runtime::fastConv(fast.view, x.view, wTile.view, nullptr, call, workspace));
        rt::conv2d(loop.view, x.view, wTile.view, nullptr, win, 1);
        expectNear(fast.data, loop.data, 1e-4f);
    };
    tile(0, 0, 7);
    EXPECT_EQ(workspace.columnsReused, 0u);
    tile(8, 0, 7);
    EXPECT_EQ(workspace.columnsReused, 1u); // same input, same bytes
    x.data[100] += 1.0f;                    // same place, other bytes
    tile(0, 0, 7);
    EXPECT_EQ(workspace.columnsReused, 1u);
    tile(8, 0, 7);
    EXPECT_EQ(workspace.columnsReused, 2u);
    tile(0, 2, 3); // another row tile: other columns
    EXPECT_EQ(workspace.columnsReused, 2u);
}

TEST(FastGemm, EveryTransposeWithBroadcastBiasOnARowTile) {
    std::mt19937 rng(5);
    // 6 columns go to OpenBLAS's sgemm, 150 to oneDNN's.
    for (i64 n : {6, 150})
        for (bool ta : {false, true})
            for (bool tb : {false, true}) {
                const i64 m = 9, k = 7;
                Box a = ta ? Box::whole({k, m}, rng) : Box::whole({m, k}, rng);
                Box b = tb ? Box::whole({n, k}, rng) : Box::whole({k, n}, rng);
                Box c = Box::whole({1, n}, rng);
                Box fast({m, n}, {2, 1}, {5, n - 2}, rng);
                Box loop = fast;
                loop.view.data = loop.data.data();
                compiler::KernelCall call;
                call.transA = ta;
                call.transB = tb;
                call.params = {0.5f, 2.0f};
                ASSERT_TRUE(runtime::fastGemm(fast.view, a.view, b.view, &c.view, call));
                rt::gemm(loop.view, a.view, b.view, &c.view, ta, tb, 0.5f, 2.0f);
                expectNear(fast.data, loop.data, 1e-4f);
            }
}

TEST(FastMatMul, BroadcastBatchesOnATile) {
    std::mt19937 rng(9);
    for (i64 n : {6, 140}) { // OpenBLAS's sgemm, then oneDNN's
        Box a = Box::whole({2, 1, 5, 4}, rng);
        Box b = Box::whole({3, 4, n}, rng);
        Box fast({2, 3, 5, n}, {0, 1, 1, 2}, {2, 2, 3, n - 2}, rng);
        Box loop = fast;
        loop.view.data = loop.data.data();
        ASSERT_TRUE(runtime::fastMatMul(fast.view, a.view, b.view));
        rt::matmul(loop.view, a.view, b.view);
        expectNear(fast.data, loop.data, 1e-4f);
    }
}

// ViT's attention input, [tokens, 1, channels] times one weight matrix: the batches fold into
// the rows of one product. A tile of tokens, and one whose input box holds more rows per batch
// than the tile reads (uneven spacing: one product per batch, as before).
TEST(FastMatMul, BatchesSharingOneWeightMatrixFoldIntoOneProduct) {
    std::mt19937 rng(10);
    for (i64 n : {6, 140}) {
        Box a = Box::whole({7, 1, 16}, rng);
        Box b = Box::whole({16, n}, rng);
        Box fast({7, 1, n}, {2, 0, 1}, {4, 1, n - 2}, rng);
        EXPECT_EQ(runtime::foldedMatMulRows(fast.view, a.view, b.view), 4);
        Box loop = fast;
        loop.view.data = loop.data.data();
        ASSERT_TRUE(runtime::fastMatMul(fast.view, a.view, b.view));
        rt::matmul(loop.view, a.view, b.view);
        expectNear(fast.data, loop.data, 1e-4f);
    }
    Box a = Box::whole({3, 5, 8}, rng);
    Box b = Box::whole({1, 8, 6}, rng);
    Box rowsOfATile({3, 5, 6}, {0, 1, 0}, {3, 3, 6}, rng); // 3 of each batch's 5 rows
    EXPECT_EQ(runtime::foldedMatMulRows(rowsOfATile.view, a.view, b.view), 0);
    Box whole = Box::whole({3, 5, 6}, rng);
    EXPECT_EQ(runtime::foldedMatMulRows(whole.view, a.view, b.view), 15);
    Box loop = whole;
    loop.view.data = loop.data.data();
    ASSERT_TRUE(runtime::fastMatMul(whole.view, a.view, b.view));
    rt::matmul(loop.view, a.view, b.view);
    expectNear(whole.data, loop.data, 1e-4f);
    Box perBatch = Box::whole({3, 8, 6}, rng); // b differs per batch: no fold
    EXPECT_EQ(runtime::foldedMatMulRows(whole.view, a.view, perBatch.view), 0);
}

TEST(FastConv, DeclinesAWeightBoxWithoutWholeTaps) {
    std::mt19937 rng(1);
    Box x = Box::whole({1, 2, 5, 5}, rng);
    Box w({4, 2, 3, 3}, {0, 0, 0, 0}, {4, 1, 3, 3}, rng);
    Box y = Box::whole({1, 4, 5, 5}, rng);
    compiler::KernelCall call;
    call.window = {3, 3, 1, 1, 1, 1, 1, 1};
    runtime::Workspace workspace;
    EXPECT_FALSE(runtime::fastConv(y.view, x.view, w.view, nullptr, call, workspace));
}

} // namespace
} // namespace strata::test

namespace strata::test {
namespace {

// Products go to OpenBLAS only where it runs its AVX-512 kernels (whatever the case of the name
// OpenBLAS reports); its AVX2, SSE3 or generic ones, or a name it does not report, leave every
// product to oneDNN's sgemm.
TEST(Blas, OnlyAvx512KernelsShareTheProducts) {
    EXPECT_TRUE(runtime::runsAvx512Kernels("SkylakeX"));
    EXPECT_TRUE(runtime::runsAvx512Kernels("skylakex"));
    EXPECT_TRUE(runtime::runsAvx512Kernels("Cooperlake"));
    EXPECT_FALSE(runtime::runsAvx512Kernels("Haswell"));
    EXPECT_FALSE(runtime::runsAvx512Kernels("Zen"));
    EXPECT_FALSE(runtime::runsAvx512Kernels("Prescott"));
    EXPECT_FALSE(runtime::runsAvx512Kernels(""));
}

} // namespace
} // namespace strata::test
