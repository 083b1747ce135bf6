// Elementwise maps and zips as long contiguous runs. The output box is split into outer dims,
// walked by pointer steps, and one inner run of every dim whose layout is contiguous in all
// operands (the whole box when input and output boxes coincide), so the inner loop has unit or
// zero steps known at compile time and vectorises; strata_rt's loop does index arithmetic for
// every row (rows are 7-56 elements in CNN tiles) and, built at -O2, is scalar (a branch per
// Relu element). This file is built at -O3 (CMakeLists.txt). Results are bit-identical to
// strata_rt's (the same scalar functions, in the same element order), except for the
// transcendental maps: Tanh, Exp, Log and Erf run on Eigen's vectorised functions and Sigmoid
// on sigmoidRun's 16-lane expf (polynomial and rational approximations within a few ulp of
// libm's) because a libm call per element made EfficientNet's SiLU sigmoids its slowest op,
// slower than its convolutions.
#include "runtime/ComputeKernels.h"

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <unsupported/Eigen/SpecialFunctions>

namespace strata::runtime {
namespace {

using compiler::ScalarFn;
using rt::i64;

template <std::size_t N>
struct Runs {
    int outer = 0;                              // dims walked outside the run
    i64 ext[rt::kMaxRank] = {};                 // the output box's extents
    i64 n = 1;                                  // elements of one run
    float* out = nullptr;
    std::array<const float*, N> in{};           // each input's element at the box's first index
    std::array<std::array<i64, rt::kMaxRank>, N> step{}; // per output dim, 0 where broadcast
    std::array<i64, N> inner{};                 // each input's step within a run: 1 or 0
};

// Plans the runs, or returns false when an input box does not hold the output box's coordinates
// (the caller falls back to strata_rt, which reads what it reads).
template <std::size_t N>
bool plan(const rt::View<float>& y, const std::array<const rt::View<float>*, N>& xs, Runs<N>& r) {
    const int rank = y.rank;
    for (int d = 0; d < rank; ++d) r.ext[d] = y.ext[d];
    for (int d = rank - 1; d > 0; --d)
        if (y.stride[d - 1] != y.stride[d] * y.ext[d]) return false;
    if (rank > 0 && y.stride[rank - 1] != 1) return false;
    r.out = y.data;
    for (std::size_t i = 0; i < N; ++i) {
        const rt::View<float>& x = *xs[i];
        const int shift = rank - x.rank;
        if (shift < 0) return false;
        const float* p = x.data;
        for (int d = 0; d < rank; ++d) {
            r.step[i][static_cast<std::size_t>(d)] = 0;
            if (d < shift) continue;
            const int xd = d - shift;
            if (x.full[xd] == 1) {
                if (x.lo[xd] != 0 || x.ext[xd] < 1) return false;
                continue;
            }
            if (y.lo[d] < x.lo[xd] || y.lo[d] + y.ext[d] > x.lo[xd] + x.ext[xd]) return false;
            p += (y.lo[d] - x.lo[xd]) * x.stride[xd];
            r.step[i][static_cast<std::size_t>(d)] = x.stride[xd];
        }
        r.in[i] = p;
    }
    // Merge trailing dims while every operand steps through them contiguously. Dims of one
    // element merge whatever their steps: a squeeze-excite's [1, C, 1, 1] box is one run of C,
    // not C runs of one (a vector call and a fill per element).
    int first = rank; // the run covers dims [first, rank)
    if (rank > 0) {
        int last = rank - 1;
        while (last > 0 && y.ext[last] == 1)
            --last;
        first = last;
        r.n = y.ext[last];
        for (std::size_t i = 0; i < N; ++i) {
            r.inner[i] = r.step[i][static_cast<std::size_t>(last)];
            if (y.ext[last] == 1)
                r.inner[i] = r.inner[i] != 0; // one element: its step is moot
            if (r.inner[i] != 0 && r.inner[i] != 1) return false;
        }
        while (first > 0) {
            bool merges = true;
            for (std::size_t i = 0; i < N; ++i)
                merges =
                    merges && (y.ext[first - 1] == 1 ||
                               r.step[i][static_cast<std::size_t>(first - 1)] == r.inner[i] * r.n);
            if (!merges) break;
            --first;
            r.n *= y.ext[first];
        }
    }
    r.outer = first;
    return true;
}

// Calls run(out, inputs) for every run, stepping the pointers through the outer dims.
template <std::size_t N, class Run>
void walk(Runs<N>& r, Run&& run) {
    for (int d = 0; d < r.outer; ++d)
        if (r.ext[d] == 0) return;
    if (r.n == 0) return;
    i64 idx[rt::kMaxRank] = {};
    float* out = r.out;
    std::array<const float*, N> in = r.in;
    // The output's stride of each outer dim: the run (every dim after the outer ones) and up.
    i64 outStride[rt::kMaxRank] = {};
    for (int d = r.outer - 1; d >= 0; --d) outStride[d] = d == r.outer - 1 ? r.n : outStride[d + 1] * r.ext[d + 1];
    for (;;) {
        run(out, in);
        int d = r.outer - 1;
        for (; d >= 0; --d) {
            out += outStride[d];
            for (std::size_t i = 0; i < N; ++i) in[i] += r.step[i][static_cast<std::size_t>(d)];
            if (++idx[d] < r.ext[d]) break;
            out -= outStride[d] * r.ext[d];
            for (std::size_t i = 0; i < N; ++i) in[i] -= r.step[i][static_cast<std::size_t>(d)] * r.ext[d];
            idx[d] = 0;
        }
        if (d < 0) return;
    }
}

template <class F>
bool mapRuns(const rt::View<float>& y, const rt::View<float>& x, F f) {
    Runs<1> r;
    if (!plan<1>(y, {&x}, r)) return false;
    const i64 n = r.n;
    if (r.inner[0] == 1)
        walk(r, [&](float* o, const std::array<const float*, 1>& in) {
            const float* a = in[0];
            // In place: one pointer, so the compiler needs no overlap check (which an exact overlap fails).
            if (a == o)
                for (i64 i = 0; i < n; ++i) o[i] = f(o[i]);
            else
                for (i64 i = 0; i < n; ++i) o[i] = f(a[i]);
        });
    else
        walk(r, [&](float* o, const std::array<const float*, 1>& in) {
            const float v = f(*in[0]);
            for (i64 i = 0; i < n; ++i) o[i] = v;
        });
    return true;
}

// Like mapRuns, with `vec` taking and returning Eigen arrays: one vectorised expression per run.
template <class V>
bool mapArrays(const rt::View<float>& y, const rt::View<float>& x, V vec) {
    using Out = Eigen::Map<Eigen::ArrayXf>;
    using In = Eigen::Map<const Eigen::ArrayXf>;
    Runs<1> r;
    if (!plan<1>(y, {&x}, r)) return false;
    const i64 n = r.n;
    const bool broadcast = r.inner[0] == 0;
    walk(r, [&](float* o, const std::array<const float*, 1>& in) {
        if (!broadcast) {
            Out(o, n) = vec(In(in[0], n)); // coefficient-wise, so in place is fine
            return;
        }
        // One packet of the value, so the broadcast gets the same result as a run would.
        const Eigen::Array4f v = vec(Eigen::Array4f::Constant(*in[0]));
        std::fill(o, o + n, v[0]);
    });
    return true;
}

// Sixteen floats: one AVX-512 register, two AVX ones or four SSE ones, by the clone that runs.
typedef float Floats __attribute__((vector_size(64)));
typedef std::int32_t Ints __attribute__((vector_size(64)));
constexpr i64 kWide = 16;

#if defined(__x86_64__)
#define STRATA_CLONED_FOR_X86                                                                      \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define STRATA_CLONED_FOR_X86
#endif

// out[i] = sigmoid(in[i]) (times in[i] with `timesInput`: SiLU) for i < n, in place or not.
// exp(-x) is Cephes' expf (range reduction by ln 2, a degree-6 polynomial, 2^k put in the
// exponent bits; within 1-2 ulp), on sixteen lanes of whatever the machine has: Eigen, built
// for the baseline SSE2, ran 4 lanes and left EfficientNet's sigmoids at 4.5 of its 16.7 ms.
// The last partial vector runs through a padded copy, so every element gets the same
// instructions wherever its run starts (a tile's values are the whole tensor's bit for bit).
STRATA_CLONED_FOR_X86 void sigmoidRun(float* out, const float* in, i64 n, bool timesInput) {
    for (i64 t = 0; t < n; t += kWide) {
        const i64 m = std::min(kWide, n - t);
        float tail[kWide] = {};
        Floats x;
        if (m == kWide) {
            std::memcpy(&x, in + t, sizeof x);
        } else {
            std::memcpy(tail, in + t, static_cast<std::size_t>(m) * sizeof(float));
            std::memcpy(&x, tail, sizeof x);
        }
        // e = exp(-x), the argument clamped where expf saturates (NaN passes: it compares false).
        Floats v = -x;
        // Above, 89 makes k = 128: 2^k is infinite, as expf is from 88.72 (and sigmoid 0, so
        // SiLU(-inf) is -inf * 0 = NaN as strata_rt's).
        v = v > 89.0f ? Floats{} + 89.0f : v;
        v = v < -88.3762626647949f ? Floats{} - 88.3762626647949f : v;
        Floats k = v * 1.44269504088896341f + 0.5f;
        const Floats truncated = __builtin_convertvector(__builtin_convertvector(k, Ints), Floats);
        k = truncated > k ? truncated - 1.0f : truncated; // floor
        const Floats r = v - k * 0.693359375f - k * -2.12194440e-4f;
        Floats p = Floats{} + 1.9875691500e-4f;
        p = p * r + 1.3981999507e-3f;
        p = p * r + 8.3334519073e-3f;
        p = p * r + 4.1665795894e-2f;
        p = p * r + 1.6666665459e-1f;
        p = p * r + 5.0000001201e-1f;
        p = p * r * r + r + 1.0f;
        const Ints bits = (__builtin_convertvector(k, Ints) + 127) << 23;
        Floats scale;
        std::memcpy(&scale, &bits, sizeof scale);
        Floats s = 1.0f / (1.0f + p * scale);
        if (timesInput)
            s *= x;
        if (m == kWide) {
            std::memcpy(out + t, &s, sizeof s);
        } else {
            std::memcpy(tail, &s, sizeof s);
            std::memcpy(out + t, tail, static_cast<std::size_t>(m) * sizeof(float));
        }
    }
}

// Sigmoid (or SiLU) over the runs of y's box.
bool sigmoidRuns(const rt::View<float>& y, const rt::View<float>& x, bool timesInput) {
    Runs<1> r;
    if (!plan<1>(y, {&x}, r))
        return false;
    const i64 n = r.n;
    const bool broadcast = r.inner[0] == 0;
    walk(r, [&](float* o, const std::array<const float*, 1>& in) {
        if (!broadcast)
            return sigmoidRun(o, in[0], n, timesInput);
        float v = *in[0];
        sigmoidRun(&v, &v, 1, timesInput);
        std::fill(o, o + n, v);
    });
    return true;
}

template <class V, class F>
void mapVectorised(const rt::View<float>& y, const rt::View<float>& x, V vec, F scalar) {
    if (!mapArrays(y, x, vec)) rt::map(y, x, scalar);
}

template <class F>
bool zipRuns(const rt::View<float>& y, const rt::View<float>& a, const rt::View<float>& b, F f) {
    Runs<2> r;
    if (!plan<2>(y, {&a, &b}, r)) return false;
    const i64 n = r.n;
    const int kind = int(r.inner[0]) * 2 + int(r.inner[1]);
    walk(r, [&](float* o, const std::array<const float*, 2>& in) {
        const float* p = in[0];
        const float* q = in[1];
        switch (kind) {
        case 3:
            for (i64 i = 0; i < n; ++i) o[i] = f(p[i], q[i]);
            break;
        case 2: {
            const float v = *q;
            for (i64 i = 0; i < n; ++i) o[i] = f(p[i], v);
            break;
        }
        case 1: {
            const float u = *p;
            for (i64 i = 0; i < n; ++i) o[i] = f(u, q[i]);
            break;
        }
        default: {
            const float v = f(*p, *q);
            for (i64 i = 0; i < n; ++i) o[i] = v;
        }
        }
    });
    return true;
}

template <class F>
void map(const rt::View<float>& y, const rt::View<float>& x, F f) {
    if (!mapRuns(y, x, f)) rt::map(y, x, f);
}

template <class F>
void zip(const rt::View<float>& y, const rt::View<float>& a, const rt::View<float>& b, F f) {
    if (!zipRuns(y, a, b, f)) rt::zip(y, a, b, f);
}

} // namespace

void runMap(const rt::View<float>& y, const rt::View<float>& x, const compiler::KernelCall& call) {
    const auto& q = call.params;
    switch (call.fn) {
    case ScalarFn::Relu: return map(y, x, [](float v) { return rt::relu(v); });
    case ScalarFn::Sigmoid:
        if (!sigmoidRuns(y, x, false))
            rt::map(y, x, rt::sigmoid);
        return;
    case ScalarFn::Silu:
        if (!sigmoidRuns(y, x, true))
            rt::map(y, x, rt::silu);
        return;
    case ScalarFn::Tanh: return mapVectorised(y, x, [](const auto& a) { return a.tanh(); }, rt::tanh_);
    case ScalarFn::Exp: return mapVectorised(y, x, [](const auto& a) { return a.exp(); }, rt::exp_);
    case ScalarFn::Log: return mapVectorised(y, x, [](const auto& a) { return a.log(); }, rt::log_);
    case ScalarFn::Sqrt: return map(y, x, rt::sqrt_);
    case ScalarFn::Erf: return mapVectorised(y, x, [](const auto& a) { return a.erf(); }, rt::erf_);
    case ScalarFn::Neg: return map(y, x, [](float v) { return -v; });
    case ScalarFn::Abs: return map(y, x, rt::abs_);
    case ScalarFn::Reciprocal: return map(y, x, [](float v) { return 1.0f / v; });
    case ScalarFn::Floor: return map(y, x, rt::floor_);
    case ScalarFn::Ceil: return map(y, x, rt::ceil_);
    case ScalarFn::Sin: return map(y, x, rt::sin_);
    case ScalarFn::Cos: return map(y, x, rt::cos_);
    case ScalarFn::Softplus: return map(y, x, rt::softplus);
    case ScalarFn::HardSwish: return map(y, x, [](float v) { return rt::hardSwish(v); });
    case ScalarFn::Identity:
        return map(y, x, [](float v) { return v; });
    case ScalarFn::Clip: return map(y, x, rt::Clip{q[0], q[1]});
    case ScalarFn::LeakyRelu: return map(y, x, rt::LeakyRelu{q[0]});
    case ScalarFn::Elu: return map(y, x, rt::Elu{q[0]});
    case ScalarFn::HardSigmoid: return map(y, x, rt::HardSigmoid{q[0], q[1]});
    default: return;
    }
}

void runZip(const rt::View<float>& y, const rt::View<float>& a, const rt::View<float>& b,
            const compiler::KernelCall& call) {
    switch (call.fn) {
    case ScalarFn::Add: return zip(y, a, b, [](float u, float v) { return u + v; });
    case ScalarFn::Sub: return zip(y, a, b, [](float u, float v) { return u - v; });
    case ScalarFn::Mul: return zip(y, a, b, [](float u, float v) { return u * v; });
    case ScalarFn::Div: return zip(y, a, b, [](float u, float v) { return u / v; });
    case ScalarFn::Pow: return zip(y, a, b, rt::pow_);
    case ScalarFn::Max: return zip(y, a, b, rt::max_);
    case ScalarFn::Min: return zip(y, a, b, rt::min_);
    case ScalarFn::PRelu: return zip(y, a, b, rt::prelu);
    default: return;
    }
}

} // namespace strata::runtime
