// Softmax and layer normalization on Eigen, and batch normalization (runtime/NormKernels.h),
// against strata_rt's loops, on
// output tiles that take some rows of an input box holding more; rows shorter and longer than a
// vector and not a multiple of one; inputs far from zero (a softmax that forgot to subtract the
// row's peak overflows); a constant group (zero variance). They read nothing outside the input
// box and decline layouts they do not handle.

#include "KernelBoxes.h"
#include "runtime/NormKernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace strata::test {
namespace {

// x's box inside NaN guards: a read outside it poisons the result.
struct Guarded {
    std::vector<float> storage;
    rt::View<float> view;
    explicit Guarded(const Box& box) : storage(box.data.size() + 64, std::numeric_limits<float>::quiet_NaN()) {
        std::copy(box.data.begin(), box.data.end(), storage.begin() + 32);
        view = box.view;
        view.data = storage.data() + 32;
    }
};

void expectNear(const Box& actual, const Box& expected, float tolerance) {
    ASSERT_EQ(actual.data.size(), expected.data.size());
    for (std::size_t i = 0; i < actual.data.size(); ++i)
        ASSERT_NEAR(actual.data[i], expected.data[i], tolerance * std::max(1.0f, std::abs(expected.data[i])))
            << "element " << i;
}

struct SoftmaxCase {
    const char* name;
    i64 rows, length; // x is [2, rows, length]; y takes rows [1, rows - 1) of batch 1
    float scale;      // inputs are uniform in [-scale, scale]
};

class SoftmaxRowsTest : public ::testing::TestWithParam<SoftmaxCase> {};

TEST_P(SoftmaxRowsTest, MatchesTheLoopReadingOnlyItsInputBox) {
    const SoftmaxCase& p = GetParam();
    std::mt19937 rng(5);
    Box x({2, p.rows, p.length}, {1, 0, 0}, {1, p.rows, p.length}, rng);
    for (float& v : x.data) v *= p.scale;
    const Guarded guarded(x);
    Box y({2, p.rows, p.length}, {1, 1, 0}, {1, p.rows - 2, p.length}, rng);
    Box expected = y;
    expected.view.data = expected.data.data();
    rt::softmax(expected.view, x.view, 2);

    ASSERT_TRUE(runtime::fastSoftmax(y.view, guarded.view, 2));
    expectNear(y, expected, 1e-6f);
    for (float v : y.data) ASSERT_TRUE(std::isfinite(v));
}

INSTANTIATE_TEST_SUITE_P(Rows, SoftmaxRowsTest,
                         ::testing::Values(SoftmaxCase{"one_element", 4, 1, 1}, SoftmaxCase{"odd", 5, 7, 1},
                                           SoftmaxCase{"attention", 6, 128, 3},
                                           SoftmaxCase{"classifier", 3, 1000, 10},
                                           SoftmaxCase{"far_from_zero", 4, 33, 200}),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(SoftmaxRowsTest, DeclinesRowsItCannotReadWhole) {
    std::mt19937 rng(6);
    Box y = Box::whole({3, 8}, rng);
    // The axis is not the last one.
    EXPECT_FALSE(runtime::fastSoftmax(y.view, Box::whole({3, 8}, rng).view, 0));
    // x's box holds only part of each row.
    EXPECT_FALSE(runtime::fastSoftmax(y.view, Box({3, 8}, {0, 0}, {3, 4}, rng).view, 1));
    // x's box lacks a row y needs.
    EXPECT_FALSE(runtime::fastSoftmax(y.view, Box({3, 8}, {1, 0}, {2, 8}, rng).view, 1));
    // y's box is part of each row.
    EXPECT_FALSE(runtime::fastSoftmax(Box({3, 8}, {0, 2}, {3, 4}, rng).view, Box::whole({3, 8}, rng).view, 1));
}

struct LayerNormCase {
    const char* name;
    std::vector<i64> shape; // x's; y takes all but the first and last index of dim 0
    int axis;
    std::vector<i64> scaleShape;
    bool bias;
};

class LayerNormRowsTest : public ::testing::TestWithParam<LayerNormCase> {};

TEST_P(LayerNormRowsTest, MatchesTheLoopReadingOnlyItsInputBox) {
    const LayerNormCase& p = GetParam();
    std::mt19937 rng(7);
    Box x = Box::whole(p.shape, rng);
    for (std::size_t i = 0; i < x.data.size(); ++i) x.data[i] = 4 + 3 * x.data[i]; // a mean far from zero
    const Guarded guarded(x);
    std::vector<i64> lo(p.shape.size(), 0), ext = p.shape;
    lo[0] = 1;
    ext[0] = p.shape[0] - 2;
    Box y(p.shape, lo, ext, rng);
    Box scale = Box::whole(p.scaleShape, rng), bias = Box::whole(p.scaleShape, rng);
    Box expected = y;
    expected.view.data = expected.data.data();
    rt::layerNorm(expected.view, x.view, scale.view, p.bias ? &bias.view : nullptr, p.axis, 1e-5f);

    ASSERT_TRUE(runtime::fastLayerNorm(y.view, guarded.view, scale.view, p.bias ? &bias.view : nullptr, p.axis, 1e-5f));
    expectNear(y, expected, 2e-5f);
}

INSTANTIATE_TEST_SUITE_P(
    Groups, LayerNormRowsTest,
    ::testing::Values(LayerNormCase{"hidden", {5, 256}, 1, {256}, true},
                      LayerNormCase{"odd_no_bias", {4, 3, 13}, 2, {13}, false},
                      LayerNormCase{"two_dims", {4, 6, 10}, 1, {6, 10}, true},
                      LayerNormCase{"scale_with_leading_ones", {4, 2, 40}, 2, {1, 1, 40}, true},
                      LayerNormCase{"long_odd_row", {3, 1001}, 1, {1001}, true},
                      LayerNormCase{"odd_rows_past_vectors", {4, 5, 37}, 2, {37}, false}),
    [](const auto& info) { return std::string(info.param.name); });

// Rows far from zero with a small spread (offset 1000, deviation 0.5): float sums of squares
// would lose the variance to cancellation (1e6 against 0.25); the corrected two-pass scheme
// matches the double-precision loop up to the rounding of the inputs themselves.
TEST(LayerNormRowsTest, LargeOffsetsKeepTheirVariance) {
    std::mt19937 rng(9);
    for (const i64 n : {7, 768, 3001}) {
        Box x = Box::whole({3, n}, rng);
        for (float& v : x.data)
            v = 1000.0f + 0.5f * v;
        Box y = Box::whole({3, n}, rng), scale = Box::whole({n}, rng), bias = Box::whole({n}, rng);
        Box expected = y;
        expected.view.data = expected.data.data();
        rt::layerNorm(expected.view, x.view, scale.view, &bias.view, 1, 1e-5f);
        ASSERT_TRUE(runtime::fastLayerNorm(y.view, x.view, scale.view, &bias.view, 1, 1e-5f));
        expectNear(y, expected, 1e-3f);
    }
}

TEST(LayerNormRowsTest, ConstantGroupGivesTheBias) {
    std::mt19937 rng(8);
    Box x = Box::whole({2, 16}, rng);
    std::fill(x.data.begin(), x.data.end(), 3.5f);
    Box y = Box::whole({2, 16}, rng), scale = Box::whole({16}, rng), bias = Box::whole({16}, rng);
    ASSERT_TRUE(runtime::fastLayerNorm(y.view, x.view, scale.view, &bias.view, 1, 1e-5f));
    for (std::size_t i = 0; i < y.data.size(); ++i) EXPECT_FLOAT_EQ(y.data[i], bias.data[i % 16]);
}

// An output tile covering a slice of the normalized (last) axis, as the compiler tiles ViT-B/16's
// 1x197x768 layer norms into 1x197x192: each row's statistics from x's whole row, y's slice
// written.
TEST(LayerNormRowsTest, OutputSliceOfTheLastAxisReadsWholeRows) {
    std::mt19937 rng(12);
    for (const i64 lo : {0, 8, 37}) {
        Box x = Box::whole({2, 5, 64}, rng);
        for (float& v : x.data)
            v = 2 + 3 * v;
        const Guarded guarded(x);
        Box y({2, 5, 64}, {0, 1, lo}, {2, 3, 16}, rng);
        Box scale = Box::whole({64}, rng), bias = Box::whole({64}, rng);
        Box expected = y;
        expected.view.data = expected.data.data();
        rt::layerNorm(expected.view, x.view, scale.view, &bias.view, 2, 1e-5f);
        ASSERT_TRUE(runtime::fastLayerNorm(y.view, guarded.view, scale.view, &bias.view, 2, 1e-5f))
            << lo;
        expectNear(y, expected, 2e-5f);
        // Scale and bias holding only y's slice, as the compiler gives a tile its operands.
        Box scaleSlice({64}, {lo}, {16}, rng), biasSlice({64}, {lo}, {16}, rng);
        std::copy_n(scale.data.begin() + lo, 16, scaleSlice.data.begin());
        std::copy_n(bias.data.begin() + lo, 16, biasSlice.data.begin());
        ASSERT_TRUE(runtime::fastLayerNorm(y.view, guarded.view, scaleSlice.view, &biasSlice.view,
                                           2, 1e-5f))
            << lo;
        expectNear(y, expected, 2e-5f);
        // A scale box missing part of the slice is declined.
        const Box shortScale({64}, {lo + 1}, {15}, rng);
        EXPECT_FALSE(
            runtime::fastLayerNorm(y.view, guarded.view, shortScale.view, nullptr, 2, 1e-5f));
    }
    // A slice of a group of two dims is left to the loop.
    Box y2({4, 6, 10}, {0, 0, 2}, {4, 6, 4}, rng);
    EXPECT_FALSE(runtime::fastLayerNorm(y2.view, Box::whole({4, 6, 10}, rng).view,
                                        Box::whole({6, 10}, rng).view, nullptr, 1, 1e-5f));
}

TEST(LayerNormRowsTest, DeclinesGroupsItCannotReadWhole) {
    std::mt19937 rng(9);
    Box y = Box::whole({4, 6, 10}, rng), x = Box::whole({4, 6, 10}, rng);
    Box scale = Box::whole({6, 10}, rng);
    // The scale broadcasts over part of the group.
    EXPECT_FALSE(runtime::fastLayerNorm(y.view, x.view, Box::whole({10}, rng).view, nullptr, 1, 1e-5f));
    // So does the bias.
    const Box partBias = Box::whole({1, 10}, rng);
    EXPECT_FALSE(runtime::fastLayerNorm(y.view, x.view, scale.view, &partBias.view, 1, 1e-5f));
    // x's box holds part of each group.
    EXPECT_FALSE(runtime::fastLayerNorm(y.view, Box({4, 6, 10}, {0, 0, 0}, {4, 3, 10}, rng).view, scale.view, nullptr,
                                        1, 1e-5f));
    // x's box lacks rows y needs.
    EXPECT_FALSE(runtime::fastLayerNorm(y.view, Box({4, 6, 10}, {1, 0, 0}, {3, 6, 10}, rng).view, scale.view, nullptr,
                                        1, 1e-5f));
}

TEST(BatchNormPlanesTest, MatchesTheLoopBitForBitOnAChannelTile) {
    std::mt19937 rng(10);
    // Channels 3..8 of 12, whole planes; the per-channel operands hold all 12 channels.
    Box x({2, 12, 5, 7}, {0, 3, 0, 0}, {2, 6, 5, 7}, rng);
    Box y = x;
    y.view.data = y.data.data();
    Box scale = Box::whole({12}, rng), bias = Box::whole({12}, rng), mean = Box::whole({12}, rng);
    Box var = Box::whole({12}, rng);
    for (float& v : var.data) v = std::abs(v);
    Box expected = y;
    expected.view.data = expected.data.data();
    rt::batchNorm(expected.view, x.view, scale.view, bias.view, mean.view, var.view, 1e-5f);
    ASSERT_TRUE(runtime::fastBatchNorm(y.view, x.view, scale.view, bias.view, mean.view, var.view, 1e-5f));
    for (std::size_t i = 0; i < y.data.size(); ++i) ASSERT_EQ(y.data[i], expected.data[i]) << "element " << i;
}

TEST(BatchNormPlanesTest, DeclinesBoxesItCannotRunByPlanes) {
    std::mt19937 rng(11);
    Box y({1, 4, 6, 6}, {0, 0, 2, 0}, {1, 4, 3, 6}, rng);
    Box params = Box::whole({4}, rng);
    // x's box holds more rows than y's: its planes are not y's.
    EXPECT_FALSE(runtime::fastBatchNorm(y.view, Box::whole({1, 4, 6, 6}, rng).view, params.view, params.view,
                                        params.view, params.view, 1e-5f));
    // A per-channel operand lacks a channel.
    const Box short3({4}, {0}, {3}, rng);
    EXPECT_FALSE(runtime::fastBatchNorm(y.view, y.view, params.view, short3.view, params.view, params.view, 1e-5f));
}

} // namespace
} // namespace strata::test
