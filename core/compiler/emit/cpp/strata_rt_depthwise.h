// strata_rt's depthwise convolution over channels-last boxes. Its inner kernels
// (sumChannelTaps, spanTaps) are the host runtime's too: runtime/ChannelsLastConv.cpp compiles
// them into functions cloned per instruction set (hence always_inline), so a generated file runs
// what `strata-cli run` runs. Every tap of an output position is a contiguous run of channels at a
// constant offset: the taps are summed over vectors of channels, no plane is copied or padded. Part
// of strata_rt.h, which includes it after View, Window2d and the epilogue (and the C++ emitter
// inlines it there); not a header of its own.
#pragma once

namespace strata_rt {

namespace depthwise_detail {

// Sixteen floats: one AVX-512 register, two AVX ones, four SSE ones.
typedef float Vec __attribute__((vector_size(64)));
constexpr i64 kLanes = 16;

// By reference: a 64-byte vector passed by value has another ABI with and without AVX-512.
__attribute__((always_inline)) inline void load(Vec& v, const float* p) {
    std::memcpy(&v, p, sizeof v);
}
__attribute__((always_inline)) inline void store(float* p, const Vec& v) {
    std::memcpy(p, &v, sizeof v);
}

// out[c] = bias[c] + sum over taps t of xs[t][c] * ws[t][c], for c in [0, n): the taps summed in
// registers, four vectors of channels at a time.
__attribute__((always_inline)) inline void sumChannelTaps(float* out, const float* const* xs,
                                                          const float* const* ws, i64 taps,
                                                          const float* bias, i64 n) {
    i64 c = 0;
    Vec s0, s1, s2, s3, a, w;
    for (; c + 4 * kLanes <= n; c += 4 * kLanes) {
        load(s0, bias + c);
        load(s1, bias + c + kLanes);
        load(s2, bias + c + 2 * kLanes);
        load(s3, bias + c + 3 * kLanes);
        for (i64 t = 0; t < taps; ++t) {
            const float* xt = xs[t] + c;
            const float* wt = ws[t] + c;
            load(a, xt);
            load(w, wt);
            s0 += a * w;
            load(a, xt + kLanes);
            load(w, wt + kLanes);
            s1 += a * w;
            load(a, xt + 2 * kLanes);
            load(w, wt + 2 * kLanes);
            s2 += a * w;
            load(a, xt + 3 * kLanes);
            load(w, wt + 3 * kLanes);
            s3 += a * w;
        }
        store(out + c, s0);
        store(out + c + kLanes, s1);
        store(out + c + 2 * kLanes, s2);
        store(out + c + 3 * kLanes, s3);
    }
    for (; c + kLanes <= n; c += kLanes) {
        load(s0, bias + c);
        for (i64 t = 0; t < taps; ++t) {
            load(a, xs[t] + c);
            load(w, ws[t] + c);
            s0 += a * w;
        }
        store(out + c, s0);
    }
    for (; c < n; ++c) {
        float s = bias[c];
        for (i64 t = 0; t < taps; ++t)
            s += xs[t][c] * ws[t][c];
        out[c] = s;
    }
}

// A span of `count` output positions of one row whose taps all lie inside the input: tap t of
// position q reads xs[t] + q * step. Per vector of channels the taps' weights stay in registers
// over the whole span, so each position costs one load and one multiply-add per tap. `Lanes`
// positions at a time: each position's sum is a chain of Taps dependent multiply-adds, and one
// chain at a time left the multipliers waiting on its latency (42-56 GFLOP/s, one thread); every
// position still adds its taps in the same order, so the sums are those of sumChannelTaps.
// With `Silu`, SiLU is applied to each vector of sums before its store (sigmoidLanes, the very
// instructions of sigmoidRun, so the values are those of a pass after): its arithmetic runs while
// the multiply-adds wait on their loads. The channels are then a multiple of kLanes (the caller
// checks; the scalar tail below has no SiLU).
template <int Taps, bool Silu = false>
__attribute__((always_inline)) inline void spanTaps(float* out, const float* const* xs,
                                                    const float* const* ws, const float* bias,
                                                    i64 channels, i64 count, i64 step) {
    constexpr int Lanes = Taps <= 10 ? 4 : 3;
    i64 c = 0;
    for (; c + kLanes <= channels; c += kLanes) {
        Vec w[Taps], b, a;
        for (int t = 0; t < Taps; ++t)
            load(w[t], ws[t] + c);
        load(b, bias + c);
        i64 q = 0;
        for (; q + Lanes <= count; q += Lanes) {
            Vec s[Lanes];
            for (int l = 0; l < Lanes; ++l)
                s[l] = b;
            for (int t = 0; t < Taps; ++t)
                for (int l = 0; l < Lanes; ++l) {
                    load(a, xs[t] + (q + l) * step + c);
                    s[l] += a * w[t];
                }
            for (int l = 0; l < Lanes; ++l) {
                if constexpr (Silu)
                    runs::sigmoidLanes(s[l], s[l], true);
                store(out + (q + l) * channels + c, s[l]);
            }
        }
        for (; q < count; ++q) {
            Vec s = b;
            for (int t = 0; t < Taps; ++t) {
                load(a, xs[t] + q * step + c);
                s += a * w[t];
            }
            if constexpr (Silu)
                runs::sigmoidLanes(s, s, true);
            store(out + q * channels + c, s);
        }
    }
    for (; c < channels; ++c)
        for (i64 q = 0; q < count; ++q) {
            float v = bias[c];
            for (int t = 0; t < Taps; ++t)
                v += xs[t][q * step + c] * ws[t][c];
            out[q * channels + c] = v;
        }
}

using SpanKernel = void (*)(float*, const float* const*, const float* const*, const float*, i64,
                            i64, i64);

// 3x3 windows (all three rows inside, or two, or one at an edge) and 5x5 ones; with SiLU fused
// or not.
template <bool Silu> SpanKernel spanKernelOf(i64 taps) {
    switch (taps) {
    case 3:
        return spanTaps<3, Silu>;
    case 6:
        return spanTaps<6, Silu>;
    case 9:
        return spanTaps<9, Silu>;
    case 5:
        return spanTaps<5, Silu>;
    case 10:
        return spanTaps<10, Silu>;
    case 15:
        return spanTaps<15, Silu>;
    case 20:
        return spanTaps<20, Silu>;
    case 25:
        return spanTaps<25, Silu>;
    default:
        return nullptr;
    }
}
inline SpanKernel spanKernel(i64 taps, bool silu) {
    return silu ? spanKernelOf<true>(taps) : spanKernelOf<false>(taps);
}

inline bool holdsRange(const View<float>& v, int d, i64 lo, i64 n) {
    return v.lo[d] <= lo && lo + n <= v.lo[d] + v.ext[d];
}

// A rank-4 box laid out densely, as a working-memory box is.
inline bool dense(const View<float>& v) {
    return v.rank == 4 && v.stride[3] == 1 && v.stride[2] == v.ext[3] &&
           v.stride[1] == v.ext[2] * v.ext[3] && v.stride[0] == v.ext[1] * v.ext[2] * v.ext[3];
}

// Where element (n, c, h, w) of a dense channels-last box sits.
inline float* nhwc(const View<float>& v, i64 n, i64 c, i64 h, i64 w) {
    return v.data +
           (((n - v.lo[0]) * v.ext[2] + (h - v.lo[2])) * v.ext[3] + (w - v.lo[3])) * v.ext[1] +
           (c - v.lo[1]);
}

// Whether an epilogue step is an activation of y alone (it runs on each output row in cache).
inline bool isActivation(const EpilogueStep& s) {
    return s.act != Act::Add && s.act != Act::Sub && s.act != Act::Mul;
}

constexpr i64 kMaxTaps = 64; // 8x8 windows; larger ones run the row-major kernel

// What the row loop needs of a depthwise convolution over dense channels-last boxes.
struct Plan {
    i64 kh, kw, sh, sw, ph, pw, dh, dw;
    i64 c0, channels;   // y's channels
    i64 inFirst, inEnd; // the output columns whose taps all lie inside the input
};

// Checks that the boxes are what the kernel needs (dense, one channel per group, x's box holding
// every row and column inside the tensor that y's outputs read) and plans; false where not.
inline bool plan(const View<float>& y, const View<float>& x, const View<float>& w,
                 const View<float>* b, const Window2d& win, i64 group, Plan& p) {
    const i64 kh = win.kernel[0], kw = win.kernel[1], sh = win.stride[0], sw = win.stride[1],
              ph = win.padBegin[0], pw = win.padBegin[1], dh = win.dilation[0],
              dw = win.dilation[1];
    p = Plan{kh, kw, sh, sw, ph, pw, dh, dw, y.lo[1], y.ext[1], 0, 0};
    if (!dense(x) || !dense(y) || w.rank != 4 || group != y.full[1] || group != x.full[1] ||
        w.full[1] != 1 || p.kh < 1 || p.kw < 1 || p.sh < 1 || p.sw < 1 || p.dh < 1 || p.dw < 1 ||
        p.kh * p.kw > kMaxTaps)
        return false;
    if (!holdsRange(x, 1, p.c0, p.channels) || !holdsRange(w, 0, p.c0, p.channels) ||
        w.lo[2] != 0 || w.ext[2] != p.kh || w.lo[3] != 0 || w.ext[3] != p.kw ||
        (b && !holdsRange(*b, 0, p.c0, p.channels)) || !holdsRange(x, 0, y.lo[0], y.ext[0]))
        return false;
    auto covers = [&](int d, i64 first, i64 last) {
        first = std::max<i64>(first, 0);
        last = std::min(last, x.full[d] - 1);
        return first > last || holdsRange(x, d, first, last - first + 1);
    };
    const i64 rowBase = y.lo[2] * p.sh - p.ph, colBase = y.lo[3] * p.sw - p.pw;
    if (!covers(2, rowBase, rowBase + (y.ext[2] - 1) * p.sh + (p.kh - 1) * p.dh) ||
        !covers(3, colBase, colBase + (y.ext[3] - 1) * p.sw + (p.kw - 1) * p.dw))
        return false;
    const i64 outEnd = y.lo[3] + y.ext[3];
    p.inFirst = std::clamp<i64>((p.pw + p.sw - 1) / p.sw, y.lo[3], outEnd);
    const i64 lastInside = x.full[3] - 1 + p.pw - (p.kw - 1) * p.dw;
    p.inEnd = std::clamp<i64>(lastInside < 0 ? 0 : lastInside / p.sw + 1, p.inFirst, outEnd);
    return true;
}

// The taps channels-last ([kh][kw][channels]), for vectors of channels.
inline void packWeights(const Plan& p, const View<float>& w, std::vector<float>& taps) {
    taps.resize(static_cast<std::size_t>(p.kh * p.kw * p.channels));
    const float* firstTaps = w.data + (p.c0 - w.lo[0]) * w.stride[0];
    for (i64 i = 0; i < p.kh; ++i)
        for (i64 j = 0; j < p.kw; ++j) {
            const float* tap = firstTaps + i * w.stride[2] + j * w.stride[3];
            float* row = taps.data() + (i * p.kw + j) * p.channels;
            for (i64 c = 0; c < p.channels; ++c)
                row[c] = tap[c * w.stride[0]];
        }
}

// The biases of the channels (0 without b).
inline void packBias(const Plan& p, const View<float>* b, std::vector<float>& bias) {
    bias.assign(static_cast<std::size_t>(p.channels), 0.0f);
    if (b) {
        const float* first = b->data + (p.c0 - b->lo[0]) * b->stride[0];
        for (i64 c = 0; c < p.channels; ++c)
            bias[static_cast<std::size_t>(c)] = first[c * b->stride[0]];
    }
}

inline void packTaps(const Plan& p, const View<float>& w, const View<float>* b,
                     std::vector<float>& taps, std::vector<float>& bias) {
    packWeights(p, w, taps);
    packBias(p, b, bias);
}

using SumKernel = void (*)(float*, const float* const*, const float* const*, i64, const float*,
                           i64);

// The sums of output row (n, oh), channels-last ([columns][channels]), into `row`: `sum` per
// output column at the edges, `span(taps, silu)` (nullptr: `sum`) over the columns inside. The
// caller passes these kernels compiled for its machine. Returns whether the span ran with SiLU
// applied (`silu`, where the channels are whole vectors): then the columns [p.inFirst, p.inEnd)
// of the row hold SiLU of their sums, and the others still want it (siluRest).
inline bool rowSums(const Plan& p, const View<float>& y, const View<float>& x, i64 n, i64 oh,
                    float* row, const float* taps, const float* bias, SumKernel sum,
                    SpanKernel (*span)(i64, bool), bool silu = false) {
    const float* xs[kMaxTaps];
    const float* ws[kMaxTaps];
    const i64 outEnd = y.lo[3] + y.ext[3];
    // Every tap inside the input of the output at (oh, ow).
    auto gather = [&](i64 ow) {
        i64 found = 0;
        for (i64 i = 0; i < p.kh; ++i) {
            const i64 ih = oh * p.sh - p.ph + i * p.dh;
            if (ih < 0 || ih >= x.full[2])
                continue;
            for (i64 j = 0; j < p.kw; ++j) {
                const i64 iw = ow * p.sw - p.pw + j * p.dw;
                if (iw < 0 || iw >= x.full[3])
                    continue;
                xs[found] = nhwc(x, n, p.c0, ih, iw);
                ws[found] = taps + (i * p.kw + j) * p.channels;
                ++found;
            }
        }
        return found;
    };
    auto one = [&](i64 ow) {
        const i64 found = gather(ow);
        sum(row + (ow - y.lo[3]) * p.channels, xs, ws, found, bias, p.channels);
    };
    for (i64 ow = y.lo[3]; ow < p.inFirst; ++ow)
        one(ow);
    silu = silu && p.channels % kLanes == 0;
    bool fused = false;
    if (p.inFirst < p.inEnd) {
        if (const SpanKernel kernel = span(gather(p.inFirst), silu)) {
            kernel(row + (p.inFirst - y.lo[3]) * p.channels, xs, ws, bias, p.channels,
                   p.inEnd - p.inFirst, p.sw * x.ext[1]);
            fused = silu;
        } else {
            for (i64 ow = p.inFirst; ow < p.inEnd; ++ow)
                one(ow);
        }
    }
    for (i64 ow = p.inEnd; ow < outEnd; ++ow)
        one(ow);
    return fused;
}

// After rowSums fused SiLU into the span: `apply` on the row's runs it did not cover (the edge
// columns before p.inFirst and from p.inEnd), as (first float, count).
template <class F> void siluRest(const Plan& p, const View<float>& y, float* row, F apply) {
    const i64 before = (p.inFirst - y.lo[3]) * p.channels;
    const i64 after = (p.inEnd - y.lo[3]) * p.channels, end = y.ext[3] * p.channels;
    if (before > 0)
        apply(row, before);
    if (end > after)
        apply(row + after, end - after);
}

// sumChannelTaps as a function of its own (what strata_rt passes to rowSums).
inline void sumChannelTapsHere(float* out, const float* const* xs, const float* const* ws, i64 taps,
                               const float* bias, i64 n) {
    sumChannelTaps(out, xs, ws, taps, bias, n);
}

} // namespace depthwise_detail

// A depthwise convolution (one input and one output channel per group) over dense channels-last
// boxes x and y; the epilogue's leading activations run on each output row while it is in
// cache. Returns how many epilogue steps it ran, or -1, having written nothing, where the boxes
// are not what it needs (the caller runs the row-major kernels).
inline int depthwiseChannelsLast(const View<float>& y, const View<float>& x, const View<float>& w,
                                 const View<float>* b, const Window2d& win, i64 group,
                                 const EpilogueStep* steps, int count) {
    using namespace depthwise_detail;
    Plan p;
    if (!plan(y, x, w, b, win, group, p))
        return -1;
    int activations = 0;
    while (activations < count && isActivation(steps[activations]))
        ++activations;
    if (y.count() == 0)
        return activations;
    static thread_local std::vector<float> taps, bias;
    packTaps(p, w, b, taps, bias);
    for (i64 n = y.lo[0]; n < y.lo[0] + y.ext[0]; ++n)
        for (i64 oh = y.lo[2]; oh < y.lo[2] + y.ext[2]; ++oh) {
            float* row = nhwc(y, n, p.c0, oh, y.lo[3]);
            const bool fused =
                rowSums(p, y, x, n, oh, row, taps.data(), bias.data(), sumChannelTapsHere,
                        spanKernel, activations > 0 && steps[0].act == Act::Silu);
            if (fused)
                siluRest(p, y, row,
                         [](float* run, i64 count) { runs::sigmoidRun(run, run, count, true); });
            if (activations > (fused ? 1 : 0)) {
                View<float> v;
                v.data = row;
                v.rank = 1;
                v.ext[0] = v.full[0] = y.ext[3] * p.channels;
                v.stride[0] = 1;
                epilogue(v, steps, activations, fused ? 1 : 0);
            }
        }
    return activations;
}

} // namespace strata_rt

namespace strata_rt {

// A depthwise convolution writing a dense row-major box y: x's box (row-major, or already
// channels-last when `xChannelsLast`, as the compiler lays out a depthwise's input whose output
// is stored) laid out channels-last in a scratch copy, the channels-last kernel above, and its
// output laid out row-major into y's box. Two copies of a box cost less than a matrix product
// per channel. Returns how many epilogue steps it ran, or -1, having written nothing, where the
// kernel does not take the boxes.
inline int depthwiseRowMajor(const View<float>& y, const View<float>& x, const View<float>& w,
                             const View<float>* b, const Window2d& win, i64 group,
                             const EpilogueStep* steps, int count, bool xChannelsLast = false) {
    using namespace depthwise_detail;
    if (!dense(x) || !dense(y) || group < 2 || group != y.full[1] || w.full[1] != 1)
        return -1;
    static thread_local std::vector<float> xLast, yLast;
    // [N][C][P] <-> [N][P][C] for a box of `channels` channels and `positions` positions.
    auto transpose = [](float* to, const float* from, i64 batches, i64 rows, i64 cols) {
        for (i64 n = 0; n < batches; ++n, to += rows * cols, from += rows * cols)
            for (i64 r = 0; r < rows; ++r)
                for (i64 c = 0; c < cols; ++c)
                    to[c * rows + r] = from[r * cols + c];
    };
    View<float> xv = x, yv = y;
    yLast.resize(static_cast<std::size_t>(y.count()));
    yv.data = yLast.data();
    if (!xChannelsLast) {
        xLast.resize(static_cast<std::size_t>(x.count()));
        xv.data = xLast.data();
        transpose(xv.data, x.data, x.ext[0], x.ext[1], x.ext[2] * x.ext[3]);
    }
    const int done = depthwiseChannelsLast(yv, xv, w, b, win, group, steps, count);
    if (done >= 0)
        transpose(y.data, yv.data, y.ext[0], y.ext[2] * y.ext[3], y.ext[1]);
    return done;
}

} // namespace strata_rt
