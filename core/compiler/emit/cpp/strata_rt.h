// strata_rt: the small runtime that Strata's generated C++ carries inline (see docs/CODEGEN.md).
// It is plain C++20 with no dependencies, so a generated file builds with `g++ -O2 -std=c++20`.
//
// Every compute instruction works on operands held in a core's scratch memory: a *box* of a
// tensor (the region the tile holds), stored row-major over the box. Kernels walk the output
// box in the tensor's own coordinates and read inputs at the coordinates ONNX semantics name,
// so a kernel is the textbook loop restricted to a tile. Build with -DSTRATA_RT_CHECK to have
// every read checked against its operand's box (a compiler bug then stops with a message
// instead of reading garbage).
//
// Build with -DSTRATA_RT_DNNL (and link -ldnnl, Debian's libdnnl-dev) to run convolutions, Gemm
// and MatMul at library speed, on the oneDNN kernels the host runtime uses (convolutions with a
// window on its direct convolution, the rest as matrix products on its sgemm); without it they
// are the textbook loops.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <vector>

namespace strata_rt {

using i64 = std::int64_t;
constexpr int kMaxRank = 8;

// A box of a tensor in memory: `lo` and `ext` per dimension in the tensor's coordinates, `full`
// the tensor's shape. `data` is null for an operand a tile does not hold (only its shape counts).
template <class T> struct View {
    T* data = nullptr;
    int rank = 0;
    i64 lo[kMaxRank] = {};
    i64 ext[kMaxRank] = {};
    i64 full[kMaxRank] = {};
    i64 stride[kMaxRank] = {};

    i64 offset(const i64* idx) const {
        i64 o = 0;
        for (int d = 0; d < rank; ++d) {
#ifdef STRATA_RT_CHECK
            if (idx[d] < lo[d] || idx[d] >= lo[d] + ext[d]) {
                std::fprintf(
                    stderr,
                    "strata_rt: read of dim %d at %lld outside the operand box [%lld,%lld)\n", d,
                    static_cast<long long>(idx[d]), static_cast<long long>(lo[d]),
                    static_cast<long long>(lo[d] + ext[d]));
                std::abort();
            }
#endif
            o += (idx[d] - lo[d]) * stride[d];
        }
        return o;
    }
    T& at(const i64* idx) const {
        return data[offset(idx)];
    }
    i64 count() const {
        i64 n = 1;
        for (int d = 0; d < rank; ++d)
            n *= ext[d];
        return n;
    }
    bool sameBox(const View& o) const {
        if (rank != o.rank)
            return false;
        for (int d = 0; d < rank; ++d)
            if (lo[d] != o.lo[d] || ext[d] != o.ext[d])
                return false;
        return true;
    }
};

// view<float>(scratch + 0x40, {lo...}, {ext...}, {full...})
template <class T>
View<T> view(void* data, std::initializer_list<i64> lo, std::initializer_list<i64> ext,
             std::initializer_list<i64> full) {
    View<T> v;
    v.data = static_cast<T*>(data);
    v.rank = static_cast<int>(full.size());
    std::copy(lo.begin(), lo.end(), v.lo);
    std::copy(ext.begin(), ext.end(), v.ext);
    std::copy(full.begin(), full.end(), v.full);
    i64 s = 1;
    for (int d = v.rank; d-- > 0;) {
        v.stride[d] = s;
        s *= v.ext[d];
    }
    return v;
}

// An input the tile does not read (e.g. a Concat operand outside the tile): its shape only.
template <class T> View<T> absent(std::initializer_list<i64> full) {
    View<T> v;
    v.rank = static_cast<int>(full.size());
    std::copy(full.begin(), full.end(), v.full);
    return v;
}

// Calls f(idx) for every coordinate of the box, last dimension fastest.
template <class T, class F> void forEachIndex(const View<T>& box, F&& f) {
    if (box.count() == 0)
        return;
    i64 idx[kMaxRank];
    for (int d = 0; d < box.rank; ++d)
        idx[d] = box.lo[d];
    for (;;) {
        f(idx);
        int d = box.rank - 1;
        for (; d >= 0; --d) {
            if (++idx[d] < box.lo[d] + box.ext[d])
                break;
            idx[d] = box.lo[d];
        }
        if (d < 0)
            return;
    }
}

// --- transfers -------------------------------------------------------------------------------

// Copies a box of `n` elements per dim (`rank` dims) of `bytes` each between two strided
// layouts (strides in elements). Dims of one element are dropped and neighbours both sides lay
// out contiguously are merged first (a weight tile {64, 1024, 1, 1} is one run, not 65,536), so
// the innermost contiguous run is one memcpy.
inline void moveBox(void* dst, const i64* ds, const void* src, const i64* ss, const i64* n,
                    int rank, std::size_t bytes) {
    i64 shape[kMaxRank], dstStrides[kMaxRank], srcStrides[kMaxRank];
    int dims = 0;
    for (int d = 0; d < rank; ++d) {
        if (n[d] == 0)
            return;
        if (n[d] == 1)
            continue;
        if (dims > 0 && dstStrides[dims - 1] == ds[d] * n[d] &&
            srcStrides[dims - 1] == ss[d] * n[d]) {
            shape[dims - 1] *= n[d]; // the previous dim steps over exactly this one: one dim
            dstStrides[dims - 1] = ds[d];
            srcStrides[dims - 1] = ss[d];
            continue;
        }
        shape[dims] = n[d];
        dstStrides[dims] = ds[d];
        srcStrides[dims] = ss[d];
        ++dims;
    }
    if (dims == 0) {
        std::memcpy(dst, src, bytes);
        return;
    }
    const bool contiguous = dstStrides[dims - 1] == 1 && srcStrides[dims - 1] == 1;
    const int outer = contiguous ? dims - 1 : dims;
    const std::size_t run = contiguous ? static_cast<std::size_t>(shape[dims - 1]) * bytes : bytes;
    i64 idx[kMaxRank] = {};
    auto* out = static_cast<unsigned char*>(dst);
    const auto* in = static_cast<const unsigned char*>(src);
    for (;;) {
        i64 od = 0, os = 0;
        for (int d = 0; d < outer; ++d) {
            od += idx[d] * dstStrides[d];
            os += idx[d] * srcStrides[d];
        }
        std::memcpy(out + od * static_cast<i64>(bytes), in + os * static_cast<i64>(bytes), run);
        int d = outer - 1;
        for (; d >= 0; --d) {
            if (++idx[d] < shape[d])
                break;
            idx[d] = 0;
        }
        if (d < 0)
            return;
    }
}

// move(dst, {dst strides}, src, {src strides}, {shape}, bytes): moveBox as the generated code
// writes it.
inline void move(void* dst, std::initializer_list<i64> dstStrides, const void* src,
                 std::initializer_list<i64> srcStrides, std::initializer_list<i64> shape,
                 std::size_t bytes) {
    moveBox(dst, dstStrides.begin(), src, srcStrides.begin(), shape.begin(),
            static_cast<int>(shape.size()), bytes);
}

// --- elementwise -----------------------------------------------------------------------------

// Maps right-aligned output coordinates to an input's, with size-1 dims broadcast.
template <class T>
void broadcastIndex(const View<T>& in, int outRank, const i64* outIdx, i64* inIdx) {
    const int shift = outRank - in.rank;
    for (int d = 0; d < in.rank; ++d)
        inIdx[d] = in.full[d] == 1 ? 0 : outIdx[d + shift];
}

// The step along the output's last dim in an input's box: 1, or 0 when that dim broadcasts.
template <class T> i64 innerStep(const View<T>& in) {
    return in.rank == 0 || in.full[in.rank - 1] == 1 ? 0 : 1;
}

// Row by row over the output box: the last dim is contiguous in every box, so only the first
// element of a row needs index arithmetic.
template <class T, class F> void forEachRow(const View<T>& out, F&& row) {
    if (out.rank == 0) {
        const i64 none[1] = {0};
        row(none, out.data, i64{1});
        return;
    }
    View<T> rows = out;
    rows.ext[out.rank - 1] = 1;
    const i64 n = out.ext[out.rank - 1];
    forEachIndex(rows, [&](const i64* idx) { row(idx, &out.at(idx), n); });
}

// The first element of a row of `in` at output index `idx` (its last element is checked too).
template <class T> const T* rowStart(const View<T>& in, int outRank, const i64* idx, i64 n) {
    if (in.rank == 0)
        return in.data;
    i64 ii[kMaxRank];
    broadcastIndex(in, outRank, idx, ii);
#ifdef STRATA_RT_CHECK
    ii[in.rank - 1] += (n - 1) * innerStep(in);
    (void)in.at(ii);
    ii[in.rank - 1] -= (n - 1) * innerStep(in);
#else
    (void)n;
#endif
    return &in.at(ii);
}

template <class T, class F> void map(const View<T>& out, const View<T>& x, F f) {
    if (out.sameBox(x)) {
        const i64 n = out.count();
        for (i64 i = 0; i < n; ++i)
            out.data[i] = f(x.data[i]);
        return;
    }
    const i64 sx = innerStep(x);
    forEachRow(out, [&](const i64* idx, T* o, i64 n) {
        const T* xp = rowStart(x, out.rank, idx, n);
        for (i64 i = 0; i < n; ++i)
            o[i] = f(xp[i * sx]);
    });
}

template <class T, class F> void zip(const View<T>& out, const View<T>& a, const View<T>& b, F f) {
    if (out.sameBox(a) && out.sameBox(b)) {
        const i64 n = out.count();
        for (i64 i = 0; i < n; ++i)
            out.data[i] = f(a.data[i], b.data[i]);
        return;
    }
    const i64 sa = innerStep(a), sb = innerStep(b);
    forEachRow(out, [&](const i64* idx, T* o, i64 n) {
        const T* ap = rowStart(a, out.rank, idx, n);
        const T* bp = rowStart(b, out.rank, idx, n);
        for (i64 i = 0; i < n; ++i)
            o[i] = f(ap[i * sa], bp[i * sb]);
    });
}

inline float relu(float v) {
    return v > 0 ? v : 0.0f;
}
inline float sigmoid(float v) {
    return 1.0f / (1.0f + std::exp(-v));
}
inline float silu(float v) {
    return v * sigmoid(v);
} // x * sigmoid(x), SiLU or Swish
inline float tanh_(float v) {
    return std::tanh(v);
}
inline float exp_(float v) {
    return std::exp(v);
}
inline float log_(float v) {
    return std::log(v);
}
inline float sqrt_(float v) {
    return std::sqrt(v);
}
inline float erf_(float v) {
    return std::erf(v);
}
inline float neg(float v) {
    return -v;
}
inline float abs_(float v) {
    return std::fabs(v);
}
inline float reciprocal(float v) {
    return 1.0f / v;
}
inline float floor_(float v) {
    return std::floor(v);
}
inline float ceil_(float v) {
    return std::ceil(v);
}
inline float sin_(float v) {
    return std::sin(v);
}
inline float cos_(float v) {
    return std::cos(v);
}
inline float softplus(float v) {
    return std::log1p(std::exp(v));
}
inline float hardSwish(float v) {
    return v * std::clamp(v / 6.0f + 0.5f, 0.0f, 1.0f);
}
inline float identity(float v) {
    return v;
}

struct Clip {
    float lo, hi;
    float operator()(float v) const { return std::min(std::max(v, lo), hi); }
};
struct LeakyRelu {
    float alpha;
    float operator()(float v) const { return v >= 0 ? v : alpha * v; }
};
struct Elu {
    float alpha;
    float operator()(float v) const { return v >= 0 ? v : alpha * (std::exp(v) - 1.0f); }
};
struct HardSigmoid {
    float alpha, beta;
    float operator()(float v) const { return std::clamp(alpha * v + beta, 0.0f, 1.0f); }
};

inline float add(float a, float b) {
    return a + b;
}
inline float sub(float a, float b) {
    return a - b;
}
inline float mul(float a, float b) {
    return a * b;
}
inline float div(float a, float b) {
    return a / b;
}
inline float pow_(float a, float b) {
    return std::pow(a, b);
}
inline float max_(float a, float b) {
    return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
}
inline float min_(float a, float b) {
    return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
}
inline float prelu(float x, float slope) {
    return x >= 0 ? x : slope * x;
}

} // namespace strata_rt

// The run kernels (map and zip over contiguous runs, the vectorised sigmoid), which the host
// runtime's elementwise kernels are too.
#include "strata_rt_elementwise.h"

namespace strata_rt {

// map and zip over runs where the boxes allow (runs::plan), else the index loops above.
template <class F> void mapFast(const View<float>& out, const View<float>& x, F f) {
    if (!runs::mapRuns(out, x, f))
        map(out, x, f);
}
template <class F>
void zipFast(const View<float>& out, const View<float>& a, const View<float>& b, F f) {
    if (!runs::zipRuns(out, a, b, f))
        zip(out, a, b, f);
}
// Sigmoid or SiLU on the 16-lane expf where the boxes allow, else the scalar loop.
inline void sigmoidMap(const View<float>& out, const View<float>& x, bool timesInput) {
    if (runs::sigmoidRuns(out, x, timesInput, runs::sigmoidRunHere))
        return;
    if (timesInput)
        map(out, x, [](float v) { return silu(v); });
    else
        map(out, x, [](float v) { return sigmoid(v); });
}

// map and zip with one of the functions above, as generated code names them (rt::map(y0, x0,
// rt::relu)): the function as a type, so the compiler inlines (and vectorises) it into the loop;
// through the pointer it stays a call per element. Other functions run through the pointer.
template <auto F> struct Inlined {
    template <class... A> float operator()(A... a) const { return F(a...); }
};
inline void map(const View<float>& out, const View<float>& x, float (*f)(float)) {
    using Fn = float (*)(float);
    if (f == sigmoid || f == silu)
        return sigmoidMap(out, x, f == silu);
    auto with = [&]<Fn F>() {
        if (f != F)
            return false;
        mapFast(out, x, Inlined<F>{});
        return true;
    };
    if (with.template operator()<relu>() || with.template operator()<tanh_>() ||
        with.template operator()<hardSwish>() || with.template operator()<neg>() ||
        with.template operator()<abs_>() || with.template operator()<identity>() ||
        with.template operator()<exp_>() || with.template operator()<sqrt_>() ||
        with.template operator()<erf_>() || with.template operator()<reciprocal>())
        return;
    map<float, Fn>(out, x, f);
}
inline void zip(const View<float>& out, const View<float>& a, const View<float>& b,
                float (*f)(float, float)) {
    using Fn = float (*)(float, float);
    auto with = [&]<Fn F>() {
        if (f != F)
            return false;
        zipFast(out, a, b, Inlined<F>{});
        return true;
    };
    if (with.template operator()<add>() || with.template operator()<sub>() ||
        with.template operator()<mul>() || with.template operator()<div>() ||
        with.template operator()<max_>() || with.template operator()<min_>() ||
        with.template operator()<prelu>())
        return;
    zip<float, Fn>(out, a, b, f);
}

// --- fused epilogues ---------------------------------------------------------------------------

// One step of a fused epilogue (docs/CODEGEN.md): an elementwise op run in place on a compute's
// output box y right after it, while the box is in cache. An activation of y, or y combined with
// `other` (a box of y's coordinates, or broadcast to them): add(y, other), or, for Sub and Mul,
// with y second when `otherFirst`.
enum class Act : int {
    Relu,
    LeakyRelu,
    Sigmoid,
    Tanh,
    Elu,
    Clip,
    HardSwish,
    HardSigmoid,
    Add,
    Sub,
    Mul,
    Silu
};
struct EpilogueStep {
    Act act = Act::Relu;
    float alpha = 0, beta = 0; // LeakyRelu, Elu {alpha}; Clip {lo, hi}; HardSigmoid {alpha, beta}
    const View<float>* other = nullptr;
    bool otherFirst = false;
};

// Runs steps [first, count) on y in place. Each as a lambda, not a function pointer: the
// compiler inlines (and vectorises) a lambda's body into the loop; a pointer stays a call per
// element.
inline void epilogue(const View<float>& y, const EpilogueStep* steps, int count, int first = 0) {
    for (int i = first; i < count; ++i) {
        const EpilogueStep& s = steps[i];
        const View<float>& a = s.other && s.otherFirst ? *s.other : y;
        const View<float>& b = s.other && s.otherFirst ? y : (s.other ? *s.other : y);
        switch (s.act) {
        case Act::Relu:
            mapFast(y, y, [](float v) { return relu(v); });
            break;
        case Act::LeakyRelu:
            mapFast(y, y, LeakyRelu{s.alpha});
            break;
        case Act::Sigmoid:
            sigmoidMap(y, y, false);
            break;
        case Act::Tanh:
            mapFast(y, y, [](float v) { return tanh_(v); });
            break;
        case Act::Elu:
            mapFast(y, y, Elu{s.alpha});
            break;
        case Act::Clip:
            mapFast(y, y, Clip{s.alpha, s.beta});
            break;
        case Act::HardSwish:
            mapFast(y, y, [](float v) { return hardSwish(v); });
            break;
        case Act::Silu:
            sigmoidMap(y, y, true);
            break;
        case Act::HardSigmoid:
            mapFast(y, y, HardSigmoid{s.alpha, s.beta});
            break;
        case Act::Add:
            zipFast(y, a, b, [](float p, float q) { return p + q; });
            break;
        case Act::Sub:
            zipFast(y, a, b, [](float p, float q) { return p - q; });
            break;
        case Act::Mul:
            zipFast(y, a, b, [](float p, float q) { return p * q; });
            break;
        }
    }
}
inline void epilogue(const View<float>& y, std::initializer_list<EpilogueStep> steps) {
    epilogue(y, steps.begin(), static_cast<int>(steps.size()));
}

// [rows][cols] -> [cols][rows], `batches` matrices one after another: the channels-last and
// row-major layouts of a box are each other's transposes per batch element ([C][P] and [P][C]).
// Sixteen rows at a time: sixteen read streams along them, one contiguous 64-byte run written
// per column. As an in-place reorder (into a buffer, then copied back) it ran ResNet-50's 66
// reorders 10% faster than oneDNN's reorder primitive did, with no library call; docs/RUNTIME.md
// has the figures.
inline void transposeMatrices(float* to, const float* from, i64 batches, i64 rows, i64 cols) {
    for (i64 n = 0; n < batches; ++n, to += rows * cols, from += rows * cols)
        for (i64 r0 = 0; r0 < rows; r0 += 16) {
            const i64 r1 = rows < r0 + 16 ? rows : r0 + 16;
            for (i64 c = 0; c < cols; ++c)
                for (i64 r = r0; r < r1; ++r)
                    to[c * rows + r] = from[r * cols + c];
        }
}

// --- convolution and pooling (N, C, H, W) ----------------------------------------------------

struct Window2d {
    i64 kernel[2], stride[2], padBegin[2], dilation[2];
};

} // namespace strata_rt

// The oneDNN kernels (-DSTRATA_RT_DNNL, and the host runtime): they build on View and Window2d
// above, and conv2d, gemm and matmul below call them. Inlined here in generated files.
#include "strata_rt_dnnl.h"

// The channels-last depthwise convolution (the host runtime's kernel).
#include "strata_rt_depthwise.h"

namespace strata_rt {

// y[n, m, oh, ow] = b[m] + sum over the group's channels and taps of x * w; taps in the padding
// read zero.
// `constantWeights` names constant weights (a library build keeps them packed), or is -1.
// `steps`: a fused epilogue run on y after it (a library build runs what oneDNN can as post-ops).
inline void conv2dLoops(const View<float>& y, const View<float>& x, const View<float>& w,
                        const View<float>* b, const Window2d& win, i64 group);
inline void conv2d(const View<float>& y, const View<float>& x, const View<float>& w,
                   const View<float>* b, const Window2d& win, i64 group, i64 constantWeights = -1,
                   std::initializer_list<EpilogueStep> steps = {}) {
    const int count = static_cast<int>(steps.size());
#ifdef STRATA_RT_DNNL
    static thread_local DnnlConvolutions direct;
    ConvPostOp posts[kMaxConvPostOps];
    const int done = convPostOps(y, steps.begin(), count, posts);
    if (direct.run(y, x, w, b, win, group, constantWeights, posts, done))
        return epilogue(y, steps.begin(), count, done);
#else
    (void)constantWeights;
#endif
    if (const int done = depthwiseRowMajor(y, x, w, b, win, group, steps.begin(), count); done >= 0)
        return epilogue(y, steps.begin(), count, done);
#ifdef STRATA_RT_DNNL
    if (const int done = conv2dAsProduct(y, x, w, b, win, group, steps.begin(), count); done >= 0)
        return epilogue(y, steps.begin(), count, done);
#endif
    conv2dLoops(y, x, w, b, win, group);
    epilogue(y, steps.begin(), count);
}

inline void conv2dLoops(const View<float>& y, const View<float>& x, const View<float>& w,
                        const View<float>* b, const Window2d& win, i64 group) {
    const i64 cinPerGroup = w.full[1];
    const i64 coutPerGroup = y.full[1] / group;
    i64 yi[4], xi[4], wi[4], bi[1];
    for (yi[0] = y.lo[0]; yi[0] < y.lo[0] + y.ext[0]; ++yi[0])
        for (yi[1] = y.lo[1]; yi[1] < y.lo[1] + y.ext[1]; ++yi[1]) {
            const i64 g = yi[1] / coutPerGroup;
            bi[0] = yi[1];
            const float bias = b ? b->at(bi) : 0.0f;
            wi[0] = yi[1];
            xi[0] = yi[0];
            for (yi[2] = y.lo[2]; yi[2] < y.lo[2] + y.ext[2]; ++yi[2])
                for (yi[3] = y.lo[3]; yi[3] < y.lo[3] + y.ext[3]; ++yi[3]) {
                    float acc = bias;
                    for (i64 c = 0; c < cinPerGroup; ++c) {
                        xi[1] = g * cinPerGroup + c;
                        wi[1] = c;
                        for (wi[2] = 0; wi[2] < win.kernel[0]; ++wi[2]) {
                            xi[2] =
                                yi[2] * win.stride[0] - win.padBegin[0] + wi[2] * win.dilation[0];
                            if (xi[2] < 0 || xi[2] >= x.full[2])
                                continue;
                            for (wi[3] = 0; wi[3] < win.kernel[1]; ++wi[3]) {
                                xi[3] = yi[3] * win.stride[1] - win.padBegin[1] +
                                        wi[3] * win.dilation[1];
                                if (xi[3] < 0 || xi[3] >= x.full[3])
                                    continue;
                                acc += x.at(xi) * w.at(wi);
                            }
                        }
                    }
                    y.at(yi) = acc;
                }
        }
}

// A convolution over a slice of its input channels (a tile whose input does not fit working
// memory whole): x's and w's boxes hold channels [lo, lo + ext) of dim 1, which the kernels
// then see as the whole input.
inline View<float> channelSlice(View<float> v) {
    v.full[1] = v.ext[1];
    v.lo[1] = 0;
    return v;
}

// Runs `compute` into y; when `accumulate`, into a scratch box of y's shape that is then added
// to y (a later slice adding its partial sums to those in place).
template <class F> void accumulateInto(const View<float>& y, bool accumulate, F compute) {
    if (!accumulate)
        return compute(y);
    static thread_local std::vector<float> partial;
    partial.resize(static_cast<std::size_t>(y.count()));
    View<float> p = y;
    p.data = partial.data();
    i64 step = 1;
    for (int d = y.rank; d-- > 0;) {
        p.stride[d] = step;
        step *= y.ext[d];
    }
    compute(p);
    forEachIndex(y, [&](const i64* idx) { y.at(idx) += p.at(idx); });
}

// One input-channel slice of a group-1 convolution; the bias, if any, comes with the first.
inline void conv2dSlice(const View<float>& y, const View<float>& x, const View<float>& w,
                        const View<float>* b, const Window2d& win, bool accumulate) {
    accumulateInto(y, accumulate, [&](const View<float>& out) {
        conv2d(out, channelSlice(x), channelSlice(w), b, win, 1);
    });
}

} // namespace strata_rt

// Channel-blocked and channels-last boxes: positions, reorders and their kernels; inlined here in
// generated files.
#include "strata_rt_blocked.h"

namespace strata_rt {

// --- matrix products -------------------------------------------------------------------------

// y = alpha * op(A) * op(B) + beta * C, C broadcast to y.
inline void gemm(const View<float>& y, const View<float>& a, const View<float>& b,
                 const View<float>* c, bool transA, bool transB, float alpha, float beta) {
    const i64 k = transA ? a.full[0] : a.full[1];
#ifdef STRATA_RT_DNNL
    const i64 i0 = y.lo[0], rows = y.ext[0], j0 = y.lo[1], cols = y.ext[1];
    const bool aFits = transA ? holdsRange(a, 0, 0, k) && holdsRange(a, 1, i0, rows)
                              : holdsRange(a, 0, i0, rows) && holdsRange(a, 1, 0, k);
    const bool bFits = transB ? holdsRange(b, 0, j0, cols) && holdsRange(b, 1, 0, k)
                              : holdsRange(b, 0, 0, k) && holdsRange(b, 1, j0, cols);
    if (aFits && bFits && a.stride[1] == 1 && b.stride[1] == 1 && y.stride[1] == 1) {
        if (y.count() == 0)
            return;
        i64 yi[2], ci[2];
        for (yi[0] = i0; yi[0] < i0 + rows; ++yi[0])
            for (yi[1] = j0; yi[1] < j0 + cols; ++yi[1]) {
                float bias = 0;
                if (c) {
                    broadcastIndex(*c, 2, yi, ci);
                    bias = beta * c->at(ci);
                }
                y.at(yi) = bias;
            }
        const i64 ai[2] = {transA ? 0 : i0, transA ? i0 : 0},
                  bi[2] = {transB ? j0 : 0, transB ? 0 : j0};
        const i64 y0[2] = {i0, j0};
        sgemm(transA, transB, rows, cols, k, alpha, &a.at(ai), a.stride[0], &b.at(bi), b.stride[0],
              1.0f, &y.at(y0), y.stride[0]);
        return;
    }
#endif
    i64 ai[2], bi[2], ci[2];
    for (i64 i = y.lo[0]; i < y.lo[0] + y.ext[0]; ++i)
        for (i64 j = y.lo[1]; j < y.lo[1] + y.ext[1]; ++j) {
            float acc = 0;
            for (i64 p = 0; p < k; ++p) {
                ai[0] = transA ? p : i;
                ai[1] = transA ? i : p;
                bi[0] = transB ? j : p;
                bi[1] = transB ? p : j;
                acc += a.at(ai) * b.at(bi);
            }
            const i64 yi[2] = {i, j};
            float bias = 0;
            if (c) {
                broadcastIndex(*c, 2, yi, ci);
                bias = beta * c->at(ci);
            }
            y.at(yi) = alpha * acc + bias;
        }
}

// Batched numpy matmul, both operands of rank >= 2; batch dims broadcast.
inline void matmul(const View<float>& y, const View<float>& a, const View<float>& b) {
    const int r = y.rank;
    const i64 k = a.full[a.rank - 1];
    i64 ai[kMaxRank], bi[kMaxRank];
#ifdef STRATA_RT_DNNL
    const int ra = a.rank, rb = b.rank;
    const i64 m = y.ext[r - 2], n = y.ext[r - 1];
    if (holdsRange(a, ra - 1, 0, k) && holdsRange(a, ra - 2, y.lo[r - 2], m) &&
        holdsRange(b, rb - 2, 0, k) && holdsRange(b, rb - 1, y.lo[r - 1], n) &&
        a.stride[ra - 1] == 1 && b.stride[rb - 1] == 1 && y.stride[r - 1] == 1) {
        View<float> batches = y; // one visit per matrix of the output box
        batches.ext[r - 2] = batches.ext[r - 1] = 1;
        forEachIndex(batches, [&](const i64* yi) {
            broadcastIndex(a, r, yi, ai);
            broadcastIndex(b, r, yi, bi);
            ai[ra - 2] = y.lo[r - 2];
            ai[ra - 1] = 0;
            bi[rb - 2] = 0;
            bi[rb - 1] = y.lo[r - 1];
            sgemm(false, false, m, n, k, 1.0f, &a.at(ai), a.stride[ra - 2], &b.at(bi),
                  b.stride[rb - 2], 0.0f, &y.at(yi), y.stride[r - 2]);
        });
        return;
    }
#endif
    View<float> rows = y; // the output box without its last dim: one (batch, i) per visit
    rows.ext[r - 1] = 1;
    forEachIndex(rows, [&](const i64* yi0) {
        i64 yi[kMaxRank];
        std::copy(yi0, yi0 + r, yi);
        broadcastIndex(a, r, yi, ai);
        broadcastIndex(b, r, yi, bi);
        ai[a.rank - 2] = yi[r - 2];
        for (i64 j = y.lo[r - 1]; j < y.lo[r - 1] + y.ext[r - 1]; ++j) {
            yi[r - 1] = j;
            bi[b.rank - 1] = j;
            float acc = 0;
            for (i64 p = 0; p < k; ++p) {
                ai[a.rank - 1] = p;
                bi[b.rank - 2] = p;
                acc += a.at(ai) * b.at(bi);
            }
            y.at(yi) = acc;
        }
    });
}

} // namespace strata_rt

// Normalisations, softmax and reductions; inlined here in generated files.
#include "strata_rt_norm.h"

// The data-movement kernels (Transpose, Concat, Gather, Resize, ...); inlined here in generated
// files.
#include "strata_rt_movement.h"

namespace strata_rt {

// --- files -----------------------------------------------------------------------------------

// Reads exactly `bytes` bytes of `path` into `out`; false with a message when it cannot.
inline bool readFile(const char* path, std::vector<unsigned char>& out, std::size_t bytes) {
    std::FILE* f = std::fopen(path, "rb");
    if (!f) {
        std::fprintf(stderr, "cannot open '%s'\n", path);
        return false;
    }
    out.resize(bytes + 1);
    const std::size_t got = std::fread(out.data(), 1, bytes + 1, f);
    std::fclose(f);
    out.resize(bytes);
    if (got != bytes) {
        std::fprintf(stderr, "'%s' holds %s%zu bytes, expected %zu\n", path,
                     got > bytes ? "more than " : "", got > bytes ? bytes : got, bytes);
        return false;
    }
    return true;
}

} // namespace strata_rt
