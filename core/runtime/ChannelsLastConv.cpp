#include "runtime/ChannelsLastConv.h"

#include "runtime/Blas.h"
#include "runtime/ComputeKernels.h"
#include "runtime/DnnlConv.h"
#include "runtime/TargetClones.h"
#include "runtime/ViewCast.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <dnnl.h>

namespace strata::runtime {
namespace {

using compiler::Kernel;
using rt::i64;

using rt::depthwise_detail::dense;
using rt::depthwise_detail::nhwc;
bool holds(const rt::View<float>& v, int d, i64 lo, i64 n) {
    return rt::depthwise_detail::holdsRange(v, d, lo, n);
}

// strata_rt's depthwise inner kernels (compiler/emit/cpp/strata_rt_depthwise.h, the ones a
// generated program runs), cloned for AVX-512 and AVX2+FMA machines; the default clone runs SSE2
// (other architectures build the one plain version).
STRATA_CLONED_FOR_X86 void sumChannelTaps(float* out, const float* const* xs,
                                          const float* const* ws, i64 taps, const float* bias,
                                          i64 n) {
    rt::depthwise_detail::sumChannelTaps(out, xs, ws, taps, bias, n);
}

using rt::depthwise_detail::SpanKernel;
#define STRATA_SPAN(taps)                                                                          \
    STRATA_CLONED_FOR_X86 void spanTaps##taps(float* out, const float* const* xs,                  \
                                              const float* const* ws, const float* bias,           \
                                              i64 channels, i64 count, i64 step) {                 \
        rt::depthwise_detail::spanTaps<taps>(out, xs, ws, bias, channels, count, step);            \
    }                                                                                              \
    STRATA_CLONED_FOR_X86 void spanSilu##taps(float* out, const float* const* xs,                  \
                                              const float* const* ws, const float* bias,           \
                                              i64 channels, i64 count, i64 step) {                 \
        rt::depthwise_detail::spanTaps<taps, true>(out, xs, ws, bias, channels, count, step);      \
    }
// 3x3 windows (all three rows inside, or two, or one at an edge) and 5x5 ones.
STRATA_SPAN(3)
STRATA_SPAN(6)
STRATA_SPAN(9)
STRATA_SPAN(5)
STRATA_SPAN(10)
STRATA_SPAN(15)
STRATA_SPAN(20)
STRATA_SPAN(25)
#undef STRATA_SPAN

SpanKernel spanKernel(i64 taps, bool silu) {
    switch (taps) {
    case 3:
        return silu ? spanSilu3 : spanTaps3;
    case 6:
        return silu ? spanSilu6 : spanTaps6;
    case 9:
        return silu ? spanSilu9 : spanTaps9;
    case 5:
        return silu ? spanSilu5 : spanTaps5;
    case 10:
        return silu ? spanSilu10 : spanTaps10;
    case 15:
        return silu ? spanSilu15 : spanTaps15;
    case 20:
        return silu ? spanSilu20 : spanTaps20;
    case 25:
        return silu ? spanSilu25 : spanTaps25;
    default:
        return nullptr;
    }
}

// The SiLU that spanSilu fuses, for the row's other columns: the same sigmoidRun, compiled for
// the same machine, so fused and unfused columns get the same instructions.
STRATA_CLONED_FOR_X86 void siluRun(float* run, i64 count) {
    rt::runs::sigmoidRun(run, run, count, true);
}

// One output row's sums, channels-last ([columns][channels]), written to a dense row-major box
// (its channels [c0, c0 + channels) of row oh): the reorder a store or a pool would need, done on
// the row while it is in cache.
void rowToRowMajor(const rt::View<float>& y, i64 n, i64 oh, const float* row, i64 channels) {
    const i64 plane = y.ext[2] * y.ext[3], columns = y.ext[3];
    float* first = y.data + (n - y.lo[0]) * y.stride[0] + (oh - y.lo[2]) * columns;
    for (i64 c = 0; c < channels; ++c) {
        float* out = first + c * plane;
        for (i64 q = 0; q < columns; ++q)
            out[q] = row[q * channels + c];
    }
}

// A depthwise tile's taps channels-last (strata_rt's packWeights): packed once per constant weight
// value and channel tile and kept (ChannelsLastBuffers::packed, a negative tap count in the key
// telling them from pointwise weights), other weights per call. Packing gathers the weights at
// the stride of a channel: 5-9 us per call for 672-1152 channels of 5x5 taps (one thread), a
// tenth of such a tile's convolution.
const float* packedTaps(const rt::depthwise_detail::Plan& plan, const rt::View<float>& w,
                        std::int64_t constantWeights, ChannelsLastBuffers& buffers) {
    if (constantWeights < 0) {
        rt::depthwise_detail::packWeights(plan, w, buffers.weights);
        return buffers.weights.data();
    }
    const std::array<std::int64_t, 4> key{constantWeights, plan.c0, plan.channels,
                                          -plan.kh * plan.kw};
    auto [it, created] = buffers.packed.try_emplace(key);
    if (created)
        rt::depthwise_detail::packWeights(plan, w, it->second);
    return it->second.data();
}

// A depthwise convolution (one input and one output channel per group) over channels-last x,
// writing y channels-last or row-major (for a reader that wants it so: a store, a pool); the
// epilogue's leading Maps run on each output row while it is in cache.
bool depthwise(const PreparedCompute& p, Workspace& workspace, std::size_t& stepsDone) {
    const compiler::KernelCall& call = p.call;
    const auto y = viewAs<float>(p.output), x = viewAs<float>(p.inputs[0]),
               w = viewAs<float>(p.inputs[1]);
    const bool hasBias = call.hasInput(2);
    const auto b = hasBias ? viewAs<float>(p.inputs[2]) : rt::View<float>{};
    const auto& win = call.window;
    const rt::Window2d window{
        {win[0], win[1]}, {win[2], win[3]}, {win[4], win[5]}, {win[6], win[7]}};
    const bool yLast = call.outputBlock == compiler::kChannelsLast;
    rt::depthwise_detail::Plan plan;
    if (call.inputBlock != compiler::kChannelsLast || (!yLast && call.outputBlock != 0) ||
        !rt::depthwise_detail::plan(y, x, w, hasBias ? &b : nullptr, window, call.group, plan))
        return false;
    if (y.count() == 0)
        return true;

    auto& buffers = workspace.channelsLast;
    const float* taps = packedTaps(plan, w, p.constantWeights, buffers);
    rt::depthwise_detail::packBias(plan, hasBias ? &b : nullptr, buffers.bias);
    std::size_t maps = 0;
    while (maps < p.epilogue.size() && p.epilogue[maps].call.kernel == Kernel::Map)
        ++maps;
    const i64 channels = plan.channels, rowFloats = y.ext[3] * channels;
    if (!yLast)
        buffers.row.resize(static_cast<std::size_t>(rowFloats));
    // SiLU first: fused into the span of columns whose taps are all inside (rowSums).
    const bool silu = maps > 0 && p.epilogue[0].call.fn == compiler::ScalarFn::Silu;
    for (i64 n = y.lo[0]; n < y.lo[0] + y.ext[0]; ++n)
        for (i64 oh = y.lo[2]; oh < y.lo[2] + y.ext[2]; ++oh) {
            float* row = yLast ? nhwc(y, n, plan.c0, oh, y.lo[3]) : buffers.row.data();
            const bool fused =
                rt::depthwise_detail::rowSums(plan, y, x, n, oh, row, taps, buffers.bias.data(),
                                              sumChannelTaps, spanKernel, silu);
            if (fused)
                rt::depthwise_detail::siluRest(plan, y, row, siluRun);
            if (maps > (fused ? 1u : 0u)) {
                rt::View<float> v;
                v.data = row;
                v.rank = 1;
                v.ext[0] = v.full[0] = rowFloats;
                v.stride[0] = 1;
                for (std::size_t s = fused ? 1 : 0; s < maps; ++s)
                    runMap(v, v, p.epilogue[s].call);
            }
            if (!yLast)
                rowToRowMajor(y, n, oh, row, channels);
        }
    stepsDone = maps;
    return true;
}

// C = op(A) op(B) (beta 0) for the products of channels-last boxes. Single-threaded on this
// project's AVX-512 machine (a throwaway program timing both libraries, best of 2000 calls):
// with a channels-last output, C^T[P][M] = X^T . W^T with W^T packed, oneDNN's sgemm beat
// OpenBLAS's where both the reduction and the output channels are 128 or more (49 x 288 x 192:
// 49 against 58 us; 49 x 160 x 480: 69 against 81; the row-major product Y = W . X took 58 and
// 82 on OpenBLAS, 68 and 95 on oneDNN) and lost on narrower ones (98 x 24 x 96: 6.1 against
// 4.5 us); reading a channels-last input into a row-major output (the transposed X), OpenBLAS
// won everywhere but below 32 input channels (16 x 435 x 32: 7.1 against 5.6 us). Where
// OpenBLAS runs other than its AVX-512 kernels, oneDNN's everywhere (Blas.h).
void channelsLastProduct(bool transA, bool transB, i64 m, i64 n, i64 k, const float* a, i64 lda,
                         const float* b, i64 ldb, float* c, i64 ldc) {
    static const bool blasAvx512 = runsAvx512Kernels(blas().coreName);
    if ((k >= 128 && n >= 128) || (transB && k <= 32) || !blasAvx512) {
        oneDnnOnThisThreadOnly();
        dnnl_sgemm(transA ? 'T' : 'N', transB ? 'T' : 'N', m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c,
                   ldc);
        return;
    }
    blas().sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
                 transB ? CblasTrans : CblasNoTrans, static_cast<int>(m), static_cast<int>(n),
                 static_cast<int>(k), 1.0f, a, static_cast<int>(lda), b, static_cast<int>(ldb),
                 0.0f, c, static_cast<int>(ldc));
}

// W^T ([K][M] row-major) of the m output channels from `first`: packed once per constant weight
// value and channel tile and kept (ChannelsLastBuffers::packed), other weights per call.
const float* transposedWeights(const float* weights, i64 m, i64 k, std::int64_t constantWeights,
                               i64 first, ChannelsLastBuffers& buffers) {
    const std::array<std::int64_t, 4> key{constantWeights, first, m, k};
    if (constantWeights >= 0)
        if (const auto it = buffers.packed.find(key); it != buffers.packed.end())
            return it->second.data();
    std::vector<float>& out = constantWeights >= 0 ? buffers.packed[key] : buffers.weights;
    out.resize(static_cast<std::size_t>(m * k));
    for (i64 c = 0; c < m; ++c)
        for (i64 j = 0; j < k; ++j)
            out[static_cast<std::size_t>(j * m + c)] = weights[c * k + j];
    return out.data();
}

// The tile's rows of a dense row-major box x ([K][P] per batch element) copied channels-last
// ([P][K]) into `out`, as a box of its own: the positions of y's box, all K channels.
rt::View<float> channelsLastCopy(const rt::View<float>& x, const rt::View<float>& y, i64 k,
                                 std::vector<float>& out) {
    const i64 positions = y.ext[2] * y.ext[3], plane = x.ext[2] * x.ext[3];
    out.resize(static_cast<std::size_t>(y.ext[0] * positions * k));
    for (i64 n = 0; n < y.ext[0]; ++n) {
        const float* in =
            x.data + (y.lo[0] + n - x.lo[0]) * x.stride[0] + (y.lo[2] - x.lo[2]) * x.ext[3];
        float* to = out.data() + n * positions * k;
        // Sixteen channels' rows at a time: sixteen read streams, one contiguous write each.
        for (i64 c0 = 0; c0 < k; c0 += 16) {
            const i64 c1 = std::min(k, c0 + 16);
            for (i64 q = 0; q < positions; ++q)
                for (i64 c = c0; c < c1; ++c)
                    to[q * k + c] = in[c * plane + q];
        }
    }
    rt::View<float> laid;
    laid.data = out.data();
    laid.rank = 4;
    const std::array<i64, 4> lo{y.lo[0], 0, y.lo[2], y.lo[3]}, ext{y.ext[0], k, y.ext[2], y.ext[3]};
    for (int d = 0; d < 4; ++d) {
        laid.lo[d] = lo[static_cast<std::size_t>(d)];
        laid.ext[d] = ext[static_cast<std::size_t>(d)];
        laid.full[d] = x.full[d];
    }
    laid.stride[3] = 1;
    for (int d = 3; d-- > 0;)
        laid.stride[d] = laid.stride[d + 1] * laid.ext[d + 1];
    return laid;
}

// Whether a pointwise convolution (1x1, stride 1, one group) over dense boxes in either layout
// has what its output box reads: every input channel of its rows and columns, and its weights'
// and bias's output channels.
bool pointwiseFits(const PreparedCompute& p) {
    const compiler::KernelCall& call = p.call;
    const auto y = viewAs<float>(p.output), x = viewAs<float>(p.inputs[0]),
               w = viewAs<float>(p.inputs[1]);
    const bool hasBias = call.hasInput(2);
    const auto& win = call.window;
    const bool xLast = call.inputBlock == compiler::kChannelsLast,
               yLast = call.outputBlock == compiler::kChannelsLast;
    if ((call.inputBlock != 0 && !xLast) || (call.outputBlock != 0 && !yLast) || call.group != 1 ||
        win[0] != 1 || win[1] != 1 || win[2] != 1 || win[3] != 1 || win[4] != 0 || win[5] != 0 ||
        !dense(x) || !dense(y) || w.rank != 4)
        return false;
    const i64 k = w.full[1], m = y.ext[1];
    return x.lo[1] == 0 && x.ext[1] == k && x.lo[3] == y.lo[3] && x.ext[3] == y.ext[3] &&
           holds(x, 2, y.lo[2], y.ext[2]) && holds(x, 0, y.lo[0], y.ext[0]) &&
           holds(w, 0, y.lo[1], m) && w.lo[1] == 0 && w.ext[1] == k && w.ext[2] == 1 &&
           w.ext[3] == 1 && (!hasBias || holds(viewAs<float>(p.inputs[2]), 0, y.lo[1], m));
}

// A channels-last box x narrowed to y's rows, which are contiguous in it when it holds one batch
// element: oneDNN's 1x1 kernel declines the strided view of a box holding more rows (a later
// op's halo).
rt::View<float> tileRows(const rt::View<float>& x, const rt::View<float>& y) {
    if (x.ext[0] != 1 || (x.lo[2] == y.lo[2] && x.ext[2] == y.ext[2]))
        return x;
    rt::View<float> rows = x;
    rows.data = x.data + (y.lo[2] - x.lo[2]) * x.ext[3] * x.ext[1];
    rows.lo[2] = y.lo[2];
    rows.ext[2] = y.ext[2];
    for (int d = 3; d-- > 0;)
        rows.stride[d] = rows.stride[d + 1] * rows.ext[d + 1];
    return rows;
}

// A pointwise convolution (pointwiseFits) on oneDNN's 1x1 kernel between channels-last boxes:
// a row-major input's rows copied channels-last first, a row-major output written channels-last
// to a scratch box by the kernel (the epilogue's leading Maps as post-ops) and laid out row-major
// after. False, having written nothing, where the copies would cost what the kernel gains, or
// oneDNN has no fast kernel for the shape.
bool pointwiseOnOneDnn(const PreparedCompute& p, Workspace& workspace, std::size_t& stepsDone) {
    const compiler::KernelCall& call = p.call;
    const auto y = viewAs<float>(p.output), x = viewAs<float>(p.inputs[0]),
               w = viewAs<float>(p.inputs[1]);
    const bool hasBias = call.hasInput(2);
    const auto b = hasBias ? viewAs<float>(p.inputs[2]) : rt::View<float>{};
    const bool xLast = call.inputBlock == compiler::kChannelsLast,
               yLast = call.outputBlock == compiler::kChannelsLast;
    // The copies cost what the kernel gains where they move more than one float per 40
    // multiply-adds: per position K floats in, M out, for M x K multiply-adds (M x K x P tiles
    // of MobileNetV2 fuse-max, row-major both sides, fastest of 3 runs on a shared machine,
    // against the sgemm: 320 x 320 x 49 0.73x its time, 80 x 960 x 49 0.80x, 384 x 64 x 98 0.88x;
    // but 192 x 32 x 196 1.33x, 24 x 144 x 261 2.5x).
    // Nor on products of fewer than 64 Ki multiply-adds (a squeeze-excite's 1x1 maps): the
    // primitive's call costs microseconds. With both boxes row-major, only on fewer than 128
    // positions, the narrow products sgemm runs worst (matrixProduct): on 196 (ResNet-50's and
    // EfficientNet-B0's 14 x 14 tiles) the two copies cost 1.2-1.5x the sgemm's time.
    const i64 k = w.full[1], m = y.ext[1], positions = y.ext[2] * y.ext[3];
    const i64 copied = (xLast ? 0 : k) + (yLast ? 0 : m);
    if (40 * copied > m * k || m * k * positions * y.ext[0] < 65536 ||
        (!xLast && !yLast && positions >= 128))
        return false;
    auto& buffers = workspace.channelsLast;
    const rt::View<float> in = xLast ? tileRows(x, y) : channelsLastCopy(x, y, k, buffers.input);
    if (yLast)
        return dnnlConv(y, in, w, hasBias ? &b : nullptr, call, p.constantWeights, workspace.dnnl,
                        &p.epilogue, &stepsDone, compiler::kChannelsLast, compiler::kChannelsLast);
    rt::View<float> out = y;
    buffers.output.resize(static_cast<std::size_t>(y.count()));
    out.data = buffers.output.data();
    if (!dnnlConv(out, in, w, hasBias ? &b : nullptr, call, p.constantWeights, workspace.dnnl,
                  &p.epilogue, &stepsDone, compiler::kChannelsLast, compiler::kChannelsLast, true))
        return false;
    rowMajorFrom(y, out.data);
    return true;
}

// A pointwise convolution, y = W x + b per position, as one sgemm per batch element whatever
// layouts x's and y's boxes have: with P positions, M output and K input channels,
//   y row-major:      Y[M][P]   = W[M][K] . X       (X: x[K][P] row-major, or x[P][K] transposed)
//   y channels-last:  Y^T[P][M] = X^T . W^T[K][M]   (X^T: x[K][P] transposed, or x[P][K])
// where oneDNN declines it.
bool pointwise(const PreparedCompute& p, Workspace& workspace, std::size_t& stepsDone) {
    if (!pointwiseFits(p))
        return false;
    const compiler::KernelCall& call = p.call;
    const auto y = viewAs<float>(p.output), x = viewAs<float>(p.inputs[0]),
               w = viewAs<float>(p.inputs[1]);
    const bool hasBias = call.hasInput(2);
    const auto b = hasBias ? viewAs<float>(p.inputs[2]) : rt::View<float>{};
    const bool xLast = call.inputBlock == compiler::kChannelsLast,
               yLast = call.outputBlock == compiler::kChannelsLast;
    const i64 k = w.full[1], m = y.ext[1], positions = y.ext[2] * y.ext[3];
    if (y.count() == 0)
        return true;
    if (pointwiseOnOneDnn(p, workspace, stepsDone))
        return true;
    const float* weights = w.data + (y.lo[1] - w.lo[0]) * w.stride[0];
    const i64 plane = x.ext[2] * x.ext[3];
    for (i64 n = y.lo[0]; n < y.lo[0] + y.ext[0]; ++n) {
        const i64 firstRow = (y.lo[2] - x.lo[2]) * x.ext[3];
        const float* in = x.data + (n - x.lo[0]) * x.stride[0] + firstRow * (xLast ? k : 1);
        float* out = y.data + (n - y.lo[0]) * y.stride[0];
        const i64 lda = xLast ? k : plane; // x's matrix, either way round
        const float* bias = hasBias ? b.data + (y.lo[1] - b.lo[0]) * b.stride[0] : nullptr;
        std::size_t maps = 0;
        if (yLast) {
            const float* packed = transposedWeights(weights, m, k, p.constantWeights, y.lo[1],
                                                    workspace.channelsLast);
            channelsLastProduct(!xLast, false, positions, m, k, in, lda, packed, m, out, m);
            maps = biasAndMaps(out, positions, m, bias, b.stride[0], true, &p.epilogue);
        } else {
            if (xLast)
                channelsLastProduct(false, true, m, positions, k, weights, k, in, lda, out,
                                    positions);
            else
                matrixProduct(false, false, m, positions, k, 1.0f, weights, k, in, lda, 0.0f, out,
                              positions);
            maps = biasAndMaps(out, m, positions, bias, b.stride[0], false, &p.epilogue);
        }
        stepsDone = maps;
    }
    return true;
}

} // namespace

bool pointwiseConv(const PreparedCompute& p, Workspace& workspace, std::size_t& stepsDone) {
    if (p.call.kernel != Kernel::Conv2d || p.call.accumulate || p.call.slicesChannels() ||
        !pointwiseFits(p))
        return false;
    const auto y = viewAs<float>(p.output);
    return y.count() == 0 || pointwiseOnOneDnn(p, workspace, stepsDone);
}

bool channelsLastConv(const PreparedCompute& p, Workspace& workspace, std::size_t& stepsDone) {
    if (p.call.kernel != Kernel::Conv2d || p.call.accumulate || p.call.slicesChannels())
        return false;
    return pointwise(p, workspace, stepsDone) || depthwise(p, workspace, stepsDone);
}

// A dense box `channelsLast` ([P][M] per batch element) written row-major ([M][P]) into y's
// box of the same extents.
void rowMajorFrom(const rt::View<float>& y, const float* channelsLast) {
    const i64 positions = y.ext[2] * y.ext[3], m = y.ext[1];
    for (i64 n = 0; n < y.ext[0]; ++n) {
        const float* from = channelsLast + n * positions * m;
        float* to = y.data + n * y.stride[0];
        // Sixteen channels at a time: one contiguous read per position, sixteen write streams.
        for (i64 c0 = 0; c0 < m; c0 += 16) {
            const i64 c1 = std::min(m, c0 + 16);
            for (i64 q = 0; q < positions; ++q)
                for (i64 c = c0; c < c1; ++c)
                    to[c * positions + q] = from[q * m + c];
        }
    }
}

} // namespace strata::runtime
