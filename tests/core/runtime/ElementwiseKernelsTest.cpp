// The runtime's contiguous-run elementwise kernels against strata_rt's loops (the ones the
// generated C++ runs): bit-identical outputs on whole boxes, tiles of larger input boxes (halos),
// in place, broadcast operands and rank 0, so the fast path only changes speed. The
// transcendental maps run on Eigen's vectorised functions instead: within a few ulp of libm's,
// with the same infinities, zeros and NaNs at the edges of their domains.

#include "KernelBoxes.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>

namespace strata::test {
namespace {

using compiler::ScalarFn;

compiler::KernelCall call(ScalarFn fn, std::vector<float> params = {}) {
    compiler::KernelCall c;
    c.fn = fn;
    c.params = std::move(params);
    return c;
}

// Same bits (NaN included): both sides apply the same scalar function to the same element.
void expectSameBits(const std::vector<float>& a, const std::vector<float>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        ASSERT_EQ(std::memcmp(&a[i], &b[i], sizeof(float)), 0)
            << "element " << i << ": " << a[i] << " vs " << b[i];
}

// Runs runMap on `y` and strata_rt's map on a copy; compares.
template <class F> void checkMap(Box& y, const Box& x, const compiler::KernelCall& c, F f) {
    Box ref = y;
    ref.view.data = ref.data.data();
    rt::map(ref.view, x.view, f);
    runtime::runMap(y.view, x.view, c);
    expectSameBits(y.data, ref.data);
}

template <class F> void checkZip(Box& y, const Box& a, const Box& b, F f) {
    Box ref = y;
    ref.view.data = ref.data.data();
    rt::zip(ref.view, a.view, b.view, f);
    runtime::runZip(y.view, a.view, b.view, call(ScalarFn::Add));
    expectSameBits(y.data, ref.data);
}

const auto kAdd = [](float u, float v) { return u + v; };

TEST(ElementwiseKernels, ReluOnTheSameBoxWithNaNsAndZeros) {
    std::mt19937 rng(1);
    Box x = Box::whole({2, 3, 5, 7}, rng);
    x.data[3] = std::numeric_limits<float>::quiet_NaN();
    x.data[4] = -0.0f;
    Box y = Box::whole({2, 3, 5, 7}, rng);
    checkMap(y, x, call(ScalarFn::Relu), [](float v) { return rt::relu(v); });
}

TEST(ElementwiseKernels, ReluTileOfAnInputBoxWithHaloRows) {
    std::mt19937 rng(2);
    // The input box holds rows 1..8 (a later 3x3 window's halo); the output tile rows 2..6,
    // channels 1..2.
    Box x({1, 4, 10, 6}, {0, 0, 1, 0}, {1, 4, 8, 6}, rng);
    Box y({1, 4, 10, 6}, {0, 1, 2, 0}, {1, 2, 5, 6}, rng);
    checkMap(y, x, call(ScalarFn::Relu), [](float v) { return rt::relu(v); });
}

TEST(ElementwiseKernels, ColumnTileIsWalkedRowByRow) {
    std::mt19937 rng(3);
    Box x({1, 2, 6, 9}, {0, 0, 0, 0}, {1, 2, 6, 9}, rng);
    Box y({1, 2, 6, 9}, {0, 0, 1, 3}, {1, 2, 4, 5},
          rng); // columns 3..7 of 9: rows not contiguous in x
    checkMap(y, x, call(ScalarFn::Clip, {-0.25f, 0.5f}), rt::Clip{-0.25f, 0.5f});
}

// Boxes of one-element trailing dims ([1, C, 1, 1], squeeze-excite's) are walked as one run of
// C: a channel tile of a taller input box, the Relu and a zip with a per-channel box.
TEST(ElementwiseKernels, OneElementDimsMergeIntoTheRun) {
    std::mt19937 rng(16);
    Box x({2, 40, 1, 1}, {0, 0, 0, 0}, {2, 40, 1, 1}, rng);
    Box y({2, 40, 1, 1}, {1, 3, 0, 0}, {1, 29, 1, 1}, rng);
    checkMap(y, x, call(ScalarFn::Relu), [](float v) { return rt::relu(v); });
    Box z({2, 40, 1, 1}, {1, 3, 0, 0}, {1, 29, 1, 1}, rng);
    Box s({1, 40, 1, 1}, {0, 0, 0, 0}, {1, 40, 1, 1}, rng);
    checkZip(z, x, s, kAdd);
}

TEST(ElementwiseKernels, InPlaceMap) {
    std::mt19937 rng(4);
    Box y = Box::whole({3, 17}, rng);
    std::vector<float> expected = y.data;
    for (float& v : expected)
        v = rt::hardSwish(v);
    runtime::runMap(y.view, y.view, call(ScalarFn::HardSwish));
    expectSameBits(y.data, expected);
}

TEST(ElementwiseKernels, MapOfABroadcastScalar) {
    std::mt19937 rng(5);
    Box x = Box::whole({1}, rng);
    Box y = Box::whole({4, 3}, rng);
    checkMap(y, x, call(ScalarFn::Neg), [](float v) { return -v; });
}

TEST(ElementwiseKernels, RankZeroOutput) {
    std::mt19937 rng(6);
    Box x = Box::whole({}, rng);
    Box y = Box::whole({}, rng);
    checkMap(y, x, call(ScalarFn::Abs), rt::abs_);
}

TEST(ElementwiseKernels, AddOfTwoTilesOfDifferentBoxes) {
    std::mt19937 rng(7);
    Box a({1, 8, 7, 7}, {0, 0, 0, 0}, {1, 8, 7, 7}, rng);
    Box b({1, 8, 7, 7}, {0, 2, 1, 0}, {1, 4, 5, 7}, rng);
    Box y({1, 8, 7, 7}, {0, 2, 2, 0}, {1, 3, 3, 7}, rng);
    checkZip(y, a, b, kAdd);
}

TEST(ElementwiseKernels, AddBroadcastPerChannelAndAlongTheLastDim) {
    std::mt19937 rng(8);
    Box a = Box::whole({2, 5, 4, 6}, rng);
    Box perChannel({5, 1, 1}, {1, 0, 0}, {3, 1, 1}, rng); // channels 1..3 held
    Box y({2, 5, 4, 6}, {0, 1, 0, 0}, {2, 3, 4, 6}, rng);
    checkZip(y, a, perChannel, kAdd);
    Box row = Box::whole({6}, rng); // a bias along the last dim, on the left
    Box y2 = Box::whole({2, 5, 4, 6}, rng);
    checkZip(y2, row, a, kAdd);
    Box scalar = Box::whole({}, rng);
    Box y3 = Box::whole({2, 5, 4, 6}, rng);
    checkZip(y3, scalar, scalar, kAdd);
}

TEST(ElementwiseKernels, EveryUnaryFunctionMatchesStrataRt) {
    std::mt19937 rng(9);
    Box x({2, 9, 11}, {0, 0, 0}, {2, 9, 11}, rng);
    Box y({2, 9, 11}, {0, 1, 2}, {2, 7, 8}, rng);
    const compiler::KernelCall relu = call(ScalarFn::Relu);
    checkMap(y, x, relu, [](float v) { return rt::relu(v); });
    checkMap(y, x, call(ScalarFn::Abs), rt::abs_);
    checkMap(y, x, call(ScalarFn::HardSwish), [](float v) { return rt::hardSwish(v); });
    checkMap(y, x, call(ScalarFn::LeakyRelu, {0.1f}), rt::LeakyRelu{0.1f});
    checkMap(y, x, call(ScalarFn::HardSigmoid, {0.2f, 0.5f}), rt::HardSigmoid{0.2f, 0.5f});
}

// Within `ulps` units in the last place of strata_rt's result (absolute 1e-7 near zero), and
// the same class: both infinite with one sign, both NaN, or both finite.
void expectClose(const std::vector<float>& actual, const std::vector<float>& expected,
                 const std::vector<float>& inputs, float ulps) {
    ASSERT_EQ(actual.size(), expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i) {
        const float a = actual[i], e = expected[i];
        if (std::isnan(e) || std::isinf(e)) {
            EXPECT_EQ(std::isnan(a), std::isnan(e)) << "input " << inputs[i];
            if (std::isinf(e)) {
                EXPECT_EQ(a, e) << "input " << inputs[i];
            }
            continue;
        }
        const float tolerance =
            std::max(1e-7f, ulps * std::numeric_limits<float>::epsilon() * std::abs(e));
        EXPECT_NEAR(a, e, tolerance) << "input " << inputs[i];
    }
}

TEST(ElementwiseKernels, TranscendentalMapsAreVectorisedWithinAFewUlp) {
    std::mt19937 rng(10);
    // Random values over the functions' working ranges, then the edges of their domains.
    Box x = Box::whole({4, 300}, rng);
    for (std::size_t i = 0; i < x.data.size(); ++i)
        x.data[i] *= i < 600 ? 4.0f : 40.0f;
    const float inf = std::numeric_limits<float>::infinity(),
                nan = std::numeric_limits<float>::quiet_NaN();
    const float edges[] = {0.0f,    -0.0f,  1e-30f, -1e-30f, 88.0f, 89.0f, -104.0f,
                           -200.0f, 200.0f, inf,    -inf,    nan,   -1.0f};
    std::copy(std::begin(edges), std::end(edges), x.data.begin());
    struct Fn {
        ScalarFn fn;
        float (*scalar)(float);
        float ulps;
    };
    for (const Fn& f : {Fn{ScalarFn::Sigmoid, rt::sigmoid, 6}, Fn{ScalarFn::Tanh, rt::tanh_, 6},
                        Fn{ScalarFn::Exp, rt::exp_, 4}, Fn{ScalarFn::Log, rt::log_, 4},
                        Fn{ScalarFn::Erf, rt::erf_, 6}, Fn{ScalarFn::Silu, rt::silu, 6}}) {
        SCOPED_TRACE(static_cast<int>(f.fn));
        Box y = Box::whole({4, 300}, rng);
        runtime::runMap(y.view, x.view, call(f.fn));
        std::vector<float> expected(x.data.size());
        for (std::size_t i = 0; i < x.data.size(); ++i)
            expected[i] = f.scalar(x.data[i]);
        expectClose(y.data, expected, x.data, f.ulps);
        // In place and on a tile: the same values.
        Box tile({4, 300}, {1, 7}, {2, 100}, rng), inPlace = x;
        inPlace.view.data = inPlace.data.data();
        runtime::runMap(tile.view, x.view, call(f.fn));
        runtime::runMap(inPlace.view, inPlace.view, call(f.fn));
        for (i64 r = 0; r < 2; ++r) {
            for (i64 c = 0; c < 100; ++c) {
                ASSERT_EQ(std::memcmp(&tile.data[r * 100 + c], &y.data[(1 + r) * 300 + 7 + c],
                                      sizeof(float)),
                          0);
            }
        }
        expectSameBits(inPlace.data, y.data);
    }
}

// strata_rt's own sigmoid and SiLU maps (the shared 16-lane expf of strata_rt_elementwise.h, as
// a generated program runs them, built here for the baseline) against std::exp: over the working
// range, where expf saturates (|x| near 88-89 and beyond), at the infinities and NaN, on a run
// whose length leaves a partial vector, and on a tile whose row starts mid-vector.
TEST(ElementwiseKernels, SharedSigmoidMatchesStdExp) {
    std::vector<float> x;
    for (float v = -120.0f; v <= 120.0f; v += 0.0731f)
        x.push_back(v);
    const float inf = std::numeric_limits<float>::infinity(),
                nan = std::numeric_limits<float>::quiet_NaN();
    for (float v : {0.0f, -0.0f, 1e-30f, 88.3f, 88.8f, 89.0f, -88.8f, -89.0f, -104.0f, 200.0f, inf,
                    -inf, nan})
        x.push_back(v);
    const i64 n = static_cast<i64>(x.size());
    ASSERT_NE(n % 16, 0);
    for (const bool silu : {false, true}) {
        SCOPED_TRACE(silu ? "silu" : "sigmoid");
        std::vector<float> expected(x.size()), actual(x.size());
        for (std::size_t i = 0; i < x.size(); ++i) {
            const float s = 1.0f / (1.0f + std::exp(-x[i]));
            expected[i] = silu ? x[i] * s : s;
        }
        rt::runs::sigmoidRun(actual.data(), x.data(), n, silu);
        expectClose(actual, expected, x, 6);
        // Through strata_rt's map (as generated code calls it): the same bits, on the whole run
        // and on a tile starting at element 5.
        rt::View<float> xv, yv;
        xv.rank = yv.rank = 1;
        xv.data = x.data();
        xv.ext[0] = xv.full[0] = yv.full[0] = n;
        xv.stride[0] = yv.stride[0] = 1;
        std::vector<float> mapped(x.size()), tile(x.size() - 5);
        yv.data = mapped.data();
        yv.ext[0] = n;
        rt::map(yv, xv, silu ? rt::silu : rt::sigmoid);
        expectSameBits(mapped, actual);
        yv.data = tile.data();
        yv.lo[0] = 5;
        yv.ext[0] = n - 5;
        rt::map(yv, xv, silu ? rt::silu : rt::sigmoid);
        expectSameBits(tile, std::vector<float>(actual.begin() + 5, actual.end()));
    }
}

} // namespace
} // namespace strata::test
