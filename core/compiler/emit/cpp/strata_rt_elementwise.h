// strata_rt's elementwise kernels over long contiguous runs, shared with the host runtime
// (runtime/ElementwiseKernels.cpp compiles these same functions): the output box is split into
// outer dims, walked by pointer steps, and one inner run of every dim whose layout is contiguous
// in all operands, so the inner loop has unit or zero steps known at compile time and
// vectorises (a squeeze-excite's [1, C, H, W] * [1, C, 1, 1] is C runs of H * W times one
// value). And the 16-lane sigmoid (SiLU) on a short exp polynomial, which replaces a libm call per
// element. Part of strata_rt.h, which includes it after View and the scalar functions (and the C++
// emitter inlines it there); not a header of its own.
#pragma once

namespace strata_rt {
namespace runs {

template <std::size_t N> struct Runs {
    int outer = 0;          // dims walked outside the run
    i64 ext[kMaxRank] = {}; // the output box's extents
    i64 n = 1;              // elements of one run
    float* out = nullptr;
    const float* in[N] = {};    // each input's element at the box's first index
    i64 step[N][kMaxRank] = {}; // per output dim, 0 where broadcast
    i64 inner[N] = {};          // each input's step within a run: 1 or 0
};

// Plans the runs, or returns false when y's box is not dense or an input box does not hold the
// output box's coordinates (the caller falls back to the index loops, which read what they read).
template <std::size_t N>
bool plan(const View<float>& y, const View<float>* const (&xs)[N], Runs<N>& r) {
    const int rank = y.rank;
    for (int d = 0; d < rank; ++d)
        r.ext[d] = y.ext[d];
    for (int d = rank - 1; d > 0; --d)
        if (y.stride[d - 1] != y.stride[d] * y.ext[d])
            return false;
    if (rank > 0 && y.stride[rank - 1] != 1)
        return false;
    r.out = y.data;
    for (std::size_t i = 0; i < N; ++i) {
        const View<float>& x = *xs[i];
        const int shift = rank - x.rank;
        if (shift < 0)
            return false;
        const float* p = x.data;
        for (int d = 0; d < rank; ++d) {
            r.step[i][d] = 0;
            if (d < shift)
                continue;
            const int xd = d - shift;
            if (x.full[xd] == 1) {
                if (x.lo[xd] != 0 || x.ext[xd] < 1)
                    return false;
                continue;
            }
            if (y.lo[d] < x.lo[xd] || y.lo[d] + y.ext[d] > x.lo[xd] + x.ext[xd])
                return false;
            p += (y.lo[d] - x.lo[xd]) * x.stride[xd];
            r.step[i][d] = x.stride[xd];
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
            r.inner[i] = r.step[i][last];
            if (y.ext[last] == 1)
                r.inner[i] = r.inner[i] != 0; // one element: its step is moot
            if (r.inner[i] != 0 && r.inner[i] != 1)
                return false;
        }
        while (first > 0) {
            bool merges = true;
            for (std::size_t i = 0; i < N; ++i)
                merges =
                    merges && (y.ext[first - 1] == 1 || r.step[i][first - 1] == r.inner[i] * r.n);
            if (!merges)
                break;
            --first;
            r.n *= y.ext[first];
        }
    }
    r.outer = first;
    return true;
}

// Calls run(out, inputs) for every run, stepping the pointers through the outer dims.
template <std::size_t N, class Run> void walk(const Runs<N>& r, Run&& run) {
    for (int d = 0; d < r.outer; ++d)
        if (r.ext[d] == 0)
            return;
    if (r.n == 0)
        return;
    i64 idx[kMaxRank] = {};
    float* out = r.out;
    const float* in[N];
    for (std::size_t i = 0; i < N; ++i)
        in[i] = r.in[i];
    // The output's stride of each outer dim: the run (every dim after the outer ones) and up.
    i64 outStride[kMaxRank] = {};
    for (int d = r.outer - 1; d >= 0; --d)
        outStride[d] = d == r.outer - 1 ? r.n : outStride[d + 1] * r.ext[d + 1];
    for (;;) {
        run(out, static_cast<const float* const*>(in));
        int d = r.outer - 1;
        for (; d >= 0; --d) {
            out += outStride[d];
            for (std::size_t i = 0; i < N; ++i)
                in[i] += r.step[i][d];
            if (++idx[d] < r.ext[d])
                break;
            out -= outStride[d] * r.ext[d];
            for (std::size_t i = 0; i < N; ++i)
                in[i] -= r.step[i][d] * r.ext[d];
            idx[d] = 0;
        }
        if (d < 0)
            return;
    }
}

// y = f(x) over runs; false (nothing written) where plan refuses the boxes.
template <class F> bool mapRuns(const View<float>& y, const View<float>& x, F f) {
    Runs<1> r;
    if (!plan<1>(y, {&x}, r))
        return false;
    const i64 n = r.n;
    if (r.inner[0] == 1)
        walk(r, [&](float* o, const float* const* in) {
            const float* a = in[0];
            // In place: one pointer, so the compiler needs no overlap check (which an exact
            // overlap fails).
            if (a == o)
                for (i64 i = 0; i < n; ++i)
                    o[i] = f(o[i]);
            else
                for (i64 i = 0; i < n; ++i)
                    o[i] = f(a[i]);
        });
    else
        walk(r, [&](float* o, const float* const* in) {
            const float v = f(*in[0]);
            for (i64 i = 0; i < n; ++i)
                o[i] = v;
        });
    return true;
}

// y = f(a, b) over runs, either operand broadcast along a run; false where plan refuses.
template <class F>
bool zipRuns(const View<float>& y, const View<float>& a, const View<float>& b, F f) {
    Runs<2> r;
    if (!plan<2>(y, {&a, &b}, r))
        return false;
    const i64 n = r.n;
    const int kind = int(r.inner[0]) * 2 + int(r.inner[1]);
    walk(r, [&](float* o, const float* const* in) {
        const float* p = in[0];
        const float* q = in[1];
        switch (kind) {
        case 3:
            for (i64 i = 0; i < n; ++i)
                o[i] = f(p[i], q[i]);
            break;
        case 2: {
            const float v = *q;
            for (i64 i = 0; i < n; ++i)
                o[i] = f(p[i], v);
            break;
        }
        case 1: {
            const float u = *p;
            for (i64 i = 0; i < n; ++i)
                o[i] = f(u, q[i]);
            break;
        }
        default: {
            const float v = f(*p, *q);
            for (i64 i = 0; i < n; ++i)
                o[i] = v;
        }
        }
    });
    return true;
}

// Sixteen floats: one AVX-512 register, two AVX ones or four SSE ones.
typedef float Floats __attribute__((vector_size(64)));
typedef std::int32_t Ints __attribute__((vector_size(64)));
constexpr i64 kWide = 16;

// s = sigmoid(x) (times x with `timesInput`: SiLU) on sixteen lanes.
// exp(-x) = 2^k e^r with k = round(-x / ln 2): k rounded by adding 1.5 * 2^23 + 127, which
// leaves k + 127 in the sum's low mantissa bits, so one shift makes 2^k; e^r by a degree-6
// polynomial on [-ln 2 / 2, ln 2 / 2] (relative error 1e-8; r is -x - k ln 2, so its odd
// coefficients carry the sign); SiLU is x divided by 1 + e^-x. Within 1-2 ulp of
// 1 / (1 + std::exp(-x)). One thread, in place on 4 Ki-600 Ki floats, AVX-512 (this project's
// EPYC): 0.155 ns per SiLU against 0.245 for Cephes' expf with its floor and 2^k by conversions,
// and oneDNN's swish post-op (0.225 in a 1x1 convolution; docs/RUNTIME.md). Sixteen lanes of
// whatever the build targets (the host runtime calls it from functions cloned for AVX-512, AVX2
// and SSE2; the depthwise kernel applies it to its sums in registers). sigmoidRun runs the last
// partial vector through a padded copy, so every element gets the same instructions wherever its
// run starts (a tile's values are the whole tensor's bit for bit).
__attribute__((always_inline)) inline void sigmoidLanes(Floats& s, const Floats& x,
                                                        bool timesInput) {
    constexpr float kRound = 12583039.0f; // 1.5 * 2^23 + 127
    // The argument of exp(-x) clamped where it saturates (NaN passes: it compares false): below
    // x = -89, k = 128 makes 2^k infinite, as expf is from 88.72 (and sigmoid 0, and SiLU(-inf)
    // -inf / inf = NaN as the scalar silu's -inf * 0); above 87.5, k stays above -127, the smallest
    // 2^k the shift can make (the sigmoid is 1 there).
    Floats c = x < -89.0f ? Floats{} - 89.0f : x;
    c = c > 87.5f ? Floats{} + 87.5f : c;
    const Floats shifted = c * -1.44269504088896341f + kRound;
    const Floats k = shifted - kRound;
    const Floats nr = c + k * 0.693359375f + k * -2.12194440e-4f; // -r
    Floats q = Floats{} + 1.3933656737e-3f;
    q = q * nr - 8.3631752059e-3f;
    q = q * nr + 4.1666463017e-2f;
    q = q * nr - 1.6666576266e-1f;
    q = q * nr + 0.5f;
    const Floats e = q * (nr * nr) - nr + 1.0f; // e^r
    Ints bits;
    std::memcpy(&bits, &shifted, sizeof bits);
    bits <<= 23;
    Floats scale;
    std::memcpy(&scale, &bits, sizeof scale);
    const Floats d = 1.0f + e * scale;
    s = timesInput ? x / d : 1.0f / d;
}

// sigmoidLanes over a run: out[i] = sigmoid(in[i]) (times in[i] with `timesInput`) for i < n.
__attribute__((always_inline)) inline void sigmoidRun(float* out, const float* in, i64 n,
                                                      bool timesInput) {
    for (i64 t = 0; t < n; t += kWide) {
        const i64 m = std::min(kWide, n - t);
        float tail[kWide] = {};
        Floats x, s;
        if (m == kWide) {
            std::memcpy(&x, in + t, sizeof x);
        } else {
            std::memcpy(tail, in + t, static_cast<std::size_t>(m) * sizeof(float));
            std::memcpy(&x, tail, sizeof x);
        }
        sigmoidLanes(s, x, timesInput);
        if (m == kWide) {
            std::memcpy(out + t, &s, sizeof s);
        } else {
            std::memcpy(tail, &s, sizeof s);
            std::memcpy(out + t, tail, static_cast<std::size_t>(m) * sizeof(float));
        }
    }
}

// The sum, or with `isMax` the max, of n contiguous floats: 64 partial results (four vectors of
// sixteen lanes, then whole vectors into the first ones, the last partial vector's missing lanes
// the identity), folded as a tree at the end. Sums are in another order than a loop's (within a
// few ulp of it); the host runtime and generated C++ run this same function, so they agree bit
// for bit whatever vectors the build has. For planes of kVectorPlane floats and more: one thread,
// 600 Ki floats in planes of 196, 784 and 3136, 43, 21 and 20 us against 73-76 for the runtime's
// chains of adds over eight planes at a time; but 163 against 78 us in planes of 49, where the
// folds cost more than the adds.
constexpr i64 kVectorPlane = 128;
__attribute__((always_inline)) inline float reduceRun(const float* p, i64 n, bool isMax) {
    typedef float Half __attribute__((vector_size(32)));
    typedef float Quarter __attribute__((vector_size(16)));
    const float identity = isMax ? -std::numeric_limits<float>::infinity() : 0.0f;
    auto fold = [isMax](auto& a, const auto& v) { a = isMax ? (v > a ? v : a) : a + v; };
    Floats acc[4];
    for (Floats& a : acc)
        a = Floats{} + identity;
    i64 i = 0;
    for (; i + 4 * kWide <= n; i += 4 * kWide)
        for (int j = 0; j < 4; ++j) {
            Floats v;
            std::memcpy(&v, p + i + j * kWide, sizeof v);
            fold(acc[j], v);
        }
    for (int j = 0; i + kWide <= n; ++j, i += kWide) {
        Floats v;
        std::memcpy(&v, p + i, sizeof v);
        fold(acc[j], v);
    }
    if (i < n) {
        float lanes[kWide];
        std::fill(lanes, lanes + kWide, identity);
        std::memcpy(lanes, p + i, static_cast<std::size_t>(n - i) * sizeof(float));
        Floats v;
        std::memcpy(&v, lanes, sizeof v);
        fold(acc[3], v);
    }
    fold(acc[0], acc[1]);
    fold(acc[2], acc[3]);
    fold(acc[0], acc[2]);
    // Halves, quarters, then four lanes: a tree, not a chain of fifteen.
    Half h[2];
    std::memcpy(h, &acc[0], sizeof h);
    fold(h[0], h[1]);
    Quarter q[2];
    std::memcpy(q, &h[0], sizeof q);
    fold(q[0], q[1]);
    float r[4];
    std::memcpy(r, &q[0], sizeof r);
    fold(r[0], r[2]);
    fold(r[1], r[3]);
    fold(r[0], r[1]);
    return r[0];
}

using SigmoidRun = void (*)(float* out, const float* in, i64 n, bool timesInput);

// Sigmoid (or SiLU) over the runs of y's box with `run` (sigmoidRun, or a copy of it the caller
// compiled for its machine); false (nothing written) where plan refuses the boxes.
inline bool sigmoidRuns(const View<float>& y, const View<float>& x, bool timesInput,
                        SigmoidRun run) {
    Runs<1> r;
    if (!plan<1>(y, {&x}, r))
        return false;
    const i64 n = r.n;
    const bool broadcast = r.inner[0] == 0;
    walk(r, [&](float* o, const float* const* in) {
        if (!broadcast)
            return run(o, in[0], n, timesInput);
        float v = *in[0];
        run(&v, &v, 1, timesInput);
        std::fill(o, o + n, v);
    });
    return true;
}

// sigmoidRun as a function of its own (what strata_rt's maps pass to sigmoidRuns).
inline void sigmoidRunHere(float* out, const float* in, i64 n, bool timesInput) {
    sigmoidRun(out, in, n, timesInput);
}

} // namespace runs
} // namespace strata_rt
