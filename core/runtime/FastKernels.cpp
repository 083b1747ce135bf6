// The compute-bound kernels on OpenBLAS: convolution as sgemm over an im2col matrix (none for
// 1x1 stride-1 windows, whose input box already is that matrix), depthwise convolution by
// DepthwiseConv.h, Gemm and MatMul as sgemm on the operand boxes in place.
#include "runtime/Blas.h"
#include "runtime/ComputeKernels.h"
#include "runtime/DepthwiseConv.h"
#include "runtime/DnnlConv.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <dnnl.h>
#include <span>
#include <vector>

namespace strata::runtime {
namespace {

using rt::i64;

// Whether `v`'s box holds [lo, lo + n) of dim d.
bool holds(const rt::View<float>& v, int d, i64 lo, i64 n) {
    return v.lo[d] <= lo && lo + n <= v.lo[d] + v.ext[d];
}
bool whole(const rt::View<float>& v, int d) {
    return v.lo[d] == 0 && v.ext[d] == v.full[d];
}

float* at(const rt::View<float>& v, std::initializer_list<i64> idx) {
    return v.data + v.offset(idx.begin());
}

// Ceiling division for a positive divisor.
i64 ceilDiv(i64 a, i64 b) {
    return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

struct Conv {
    const rt::View<float>& y;
    const rt::View<float>& x;
    const rt::View<float>& w;
    const rt::View<float>* b;
    i64 kh, kw, sh, sw, ph, pw, dh, dw;

    // The output columns [first, last] whose input column (y.lo[3] + ow) * sw + off lies inside x.
    void columnRange(i64 off, i64& first, i64& last) const {
        const i64 base = y.lo[3] * sw + off;
        first = base >= 0 ? 0 : ceilDiv(-base, sw);
        last = std::min(y.ext[3] - 1, x.full[3] - 1 - base < 0 ? -1 : (x.full[3] - 1 - base) / sw);
    }

    // The (channels x taps) x (output positions) matrix of group g's input for batch n.
    void im2col(i64 n, i64 firstChannel, i64 channels, float* col) const {
        const i64 oh = y.ext[2], ow = y.ext[3];
        for (i64 c = 0; c < channels; ++c)
            for (i64 i = 0; i < kh; ++i)
                for (i64 j = 0; j < kw; ++j) {
                    float* dst = col + ((c * kh + i) * kw + j) * oh * ow;
                    const i64 off = -pw + j * dw;
                    i64 first, last;
                    columnRange(off, first, last);
                    for (i64 r = 0; r < oh; ++r) {
                        float* row = dst + r * ow;
                        const i64 ih = (y.lo[2] + r) * sh - ph + i * dh;
                        if (ih < 0 || ih >= x.full[2] || first > last) {
                            std::fill(row, row + ow, 0.0f);
                            continue;
                        }
                        const float* in =
                            x.data +
                            x.offset(std::array<i64, 4>{n, firstChannel + c, ih, x.lo[3]}.data()) -
                            x.lo[3] + y.lo[3] * sw + off;
                        std::fill(row, row + first, 0.0f);
                        if (sw == 1)
                            std::copy(in + first, in + last + 1, row + first);
                        else
                            for (i64 q = first; q <= last; ++q)
                                row[q] = in[q * sw];
                        std::fill(row + last + 1, row + ow, 0.0f);
                    }
                }
    }

    // What im2col(n, firstChannel, channels) reads besides x's bytes: x's layout, the output
    // box's positions and the window.
    std::array<i64, 32> columnsSource(i64 n, i64 firstChannel, i64 channels) const {
        std::array<i64, 32> key{};
        std::size_t i = 0;
        key[i++] = static_cast<i64>(reinterpret_cast<std::intptr_t>(x.data));
        for (int d = 0; d < 4; ++d) {
            key[i++] = x.lo[d];
            key[i++] = x.ext[d];
            key[i++] = x.full[d];
            key[i++] = x.stride[d];
        }
        for (i64 v : {y.lo[2], y.lo[3], y.ext[2], y.ext[3], kh, kw, sh, sw, ph, pw, dh, dw, n,
                      firstChannel, channels})
            key[i++] = v;
        return key;
    }

    // x's box in memory: from its first element to its last (strides are positive).
    std::span<const float> inputBytes() const {
        i64 span = 1;
        for (int d = 0; d < x.rank; ++d)
            span += (x.ext[d] - 1) * x.stride[d];
        return {x.data, static_cast<std::size_t>(span)};
    }

    // Whether the workspace's columns were gathered from this layout and these very bytes.
    bool keptColumnsFit(Workspace& workspace, i64 n, i64 firstChannel, i64 channels) const {
        if (!workspace.columnsKept ||
            workspace.columnsFrom != columnsSource(n, firstChannel, channels))
            return false;
        // Bits, not values: a -0.0 where a 0.0 was is another input.
        const auto bytes = inputBytes();
        if (bytes.size() != workspace.columnsInput.size() ||
            std::memcmp(bytes.data(), workspace.columnsInput.data(), bytes.size_bytes()) != 0)
            return false;
        ++workspace.columnsReused;
        return true;
    }

    void keepColumns(Workspace& workspace, i64 n, i64 firstChannel, i64 channels) const {
        const auto bytes = inputBytes();
        workspace.columnsInput.assign(bytes.begin(), bytes.end());
        workspace.columnsFrom = columnsSource(n, firstChannel, channels);
        workspace.columnsKept = true;
    }

    // A 1x1 stride-1 window over an input box of the output's columns: each channel's plane of
    // the output rows is contiguous in the input box, which is then the matrix itself (its rows
    // x.stride[1] apart, even when the box holds more rows for a later op's halo).
    bool pointwise() const {
        return kh == 1 && kw == 1 && sh == 1 && sw == 1 && ph == 0 && pw == 0 &&
               x.lo[3] == y.lo[3] && x.ext[3] == y.ext[3] && holds(x, 2, y.lo[2], y.ext[2]);
    }
};

} // namespace

// oneDNN's sgemm on wide products, OpenBLAS's on
// narrow ones. Single-threaded on this project's AVX-512 machine: oneDNN 101-116 GFLOP/s against
// OpenBLAS's 97-103 from 196 columns up, 79 against 87 at 49 (ResNet-50's last stage). Where
// OpenBLAS runs other than its AVX-512 kernels, oneDNN's everywhere (Blas.h).
void matrixProduct(bool transA, bool transB, i64 m, i64 n, i64 k, float alpha, const float* a,
                   i64 lda, const float* b, i64 ldb, float beta, float* c, i64 ldc) {
    static const bool blasAvx512 = runsAvx512Kernels(blas().coreName);
    if (n >= 128 || !blasAvx512) {
        oneDnnOnThisThreadOnly();
        dnnl_sgemm(transA ? 'T' : 'N', transB ? 'T' : 'N', m, n, k, alpha, a, lda, b, ldb, beta, c,
                   ldc);
        return;
    }
    blas().sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
                 transB ? CblasTrans : CblasNoTrans, static_cast<int>(m), static_cast<int>(n),
                 static_cast<int>(k), alpha, a, static_cast<int>(lda), b, static_cast<int>(ldb),
                 beta, c, static_cast<int>(ldc));
}

namespace {

// Rows [r0, r1) of `rowLength` floats: each element plus its bias (per row, or per column along
// every row), then `f` (a Relu or Clip folded into the same loop; the identity otherwise).
template <class F>
void biasRows(float* data, i64 r0, i64 r1, i64 rowLength, const float* bias, i64 biasStride,
              bool biasPerColumn, F f) {
    for (i64 r = r0; r < r1; ++r) {
        float* values = data + r * rowLength;
        if (!bias)
            for (i64 j = 0; j < rowLength; ++j)
                values[j] = f(values[j]);
        else if (biasPerColumn && biasStride == 1) // a vector loop
            for (i64 j = 0; j < rowLength; ++j)
                values[j] = f(values[j] + bias[j]);
        else if (biasPerColumn)
            for (i64 j = 0; j < rowLength; ++j)
                values[j] = f(values[j] + bias[j * biasStride]);
        else {
            const float v = bias[r * biasStride];
            for (i64 j = 0; j < rowLength; ++j)
                values[j] = f(values[j] + v);
        }
    }
}

} // namespace

bool foldsIntoBias(const std::vector<PreparedCompute>* epilogue) {
    if (!epilogue || epilogue->empty() || (*epilogue)[0].call.kernel != compiler::Kernel::Map)
        return false;
    const compiler::ScalarFn fn = (*epilogue)[0].call.fn;
    return fn == compiler::ScalarFn::Relu || fn == compiler::ScalarFn::Clip;
}

std::size_t biasAndMaps(float* data, i64 rows, i64 rowLength, const float* bias, i64 biasStride,
                        bool biasPerColumn, const std::vector<PreparedCompute>* epilogue) {
    std::size_t maps = 0;
    while (epilogue && maps < epilogue->size() &&
           (*epilogue)[maps].call.kernel == compiler::Kernel::Map)
        ++maps;
    // A leading Relu or Clip (MobileNet's Relu6) joins the bias's loop: one pass, not two.
    const compiler::KernelCall* first = foldsIntoBias(epilogue) ? &(*epilogue)[0].call : nullptr;
    const bool relu = first && first->fn == compiler::ScalarFn::Relu;
    const bool clip = first && first->fn == compiler::ScalarFn::Clip;
    const std::size_t folded = relu || clip ? 1 : 0;
    // Maps run on runs of whole rows of at least a few thousand floats (a channels-last row is one
    // position's channels: a call each would cost more than the map).
    const i64 rowsPerRun = std::max<i64>(1, 4096 / std::max<i64>(rowLength, 1));
    rt::View<float> run;
    run.rank = 1;
    run.stride[0] = 1;
    for (i64 r0 = 0; r0 < rows; r0 += rowsPerRun) {
        const i64 r1 = std::min(rows, r0 + rowsPerRun);
        if (relu)
            biasRows(data, r0, r1, rowLength, bias, biasStride, biasPerColumn,
                     [](float v) { return rt::relu(v); });
        else if (clip)
            biasRows(data, r0, r1, rowLength, bias, biasStride, biasPerColumn,
                     rt::Clip{first->params[0], first->params[1]});
        else if (bias)
            biasRows(data, r0, r1, rowLength, bias, biasStride, biasPerColumn,
                     [](float v) { return v; });
        run.data = data + r0 * rowLength;
        run.ext[0] = run.full[0] = (r1 - r0) * rowLength;
        for (std::size_t i = folded; i < maps; ++i)
            runMap(run, run, (*epilogue)[i].call);
    }
    return maps;
}

bool fastConv(const rt::View<float>& y, const rt::View<float>& x, const rt::View<float>& w,
              const rt::View<float>* b, const compiler::KernelCall& call, Workspace& workspace,
              const std::vector<PreparedCompute>* epilogue, std::size_t* stepsDone) {
    const auto& win = call.window;
    const Conv conv{y, x, w, b, win[0], win[1], win[2], win[3], win[4], win[5], win[6], win[7]};
    const i64 group = call.group;
    const i64 cinPerGroup = w.full[1];
    const i64 coutPerGroup = y.full[1] / group;
    if (y.rank != 4 || x.rank != 4 || w.rank != 4 || coutPerGroup < 1)
        return false;
    // The weights' taps and channels whole, and every input channel of the groups in the box.
    if (!whole(w, 1) || !whole(w, 2) || !whole(w, 3) || !holds(w, 0, y.lo[1], y.ext[1]))
        return false;
    const i64 firstGroup = y.lo[1] / coutPerGroup,
              lastGroup = (y.lo[1] + y.ext[1] - 1) / coutPerGroup;
    if (!holds(x, 1, firstGroup * cinPerGroup, (lastGroup - firstGroup + 1) * cinPerGroup))
        return false;
    if (b && !holds(*b, 0, y.lo[1], y.ext[1]))
        return false;
    if (y.count() == 0)
        return true;

    if (cinPerGroup == 1 && group > 1) {
        // The epilogue's leading maps (activations) on each plane of sums, in cache.
        std::size_t maps = 0;
        while (epilogue && maps < epilogue->size() &&
               (*epilogue)[maps].call.kernel == compiler::Kernel::Map)
            ++maps;
        const PlaneEpilogue onPlane = [&](float* plane, i64 count) {
            rt::View<float> v;
            v.data = plane;
            v.rank = 1;
            v.ext[0] = v.full[0] = count;
            v.stride[0] = 1;
            for (std::size_t i = 0; i < maps; ++i)
                runMap(v, v, (*epilogue)[i].call);
        };
        if (!depthwiseConv(y, x, w, b, call, coutPerGroup, workspace.depthwise,
                           maps > 0 ? &onPlane : nullptr))
            return false;
        if (stepsDone)
            *stepsDone = maps;
        return true;
    }

    const i64 positions = y.ext[2] * y.ext[3];
    const i64 k = cinPerGroup * conv.kh * conv.kw;
    for (i64 n = y.lo[0]; n < y.lo[0] + y.ext[0]; ++n) {
        for (i64 g = firstGroup; g <= lastGroup; ++g) {
            const i64 m0 = std::max(y.lo[1], g * coutPerGroup);
            const i64 m1 = std::min(y.lo[1] + y.ext[1], (g + 1) * coutPerGroup);
            const float* columns;
            i64 ldb = positions;
            if (conv.pointwise()) {
                columns = at(x, {n, g * cinPerGroup, y.lo[2], y.lo[3]});
                ldb = x.stride[1];
            } else {
                // Another tile of this group's output channels will gather the same columns.
                const bool tiled = m1 - m0 < coutPerGroup;
                if (!conv.keptColumnsFit(workspace, n, g * cinPerGroup, cinPerGroup)) {
                    if (workspace.columns.size() < static_cast<std::size_t>(k * positions))
                        workspace.columns.resize(static_cast<std::size_t>(k * positions));
                    conv.im2col(n, g * cinPerGroup, cinPerGroup, workspace.columns.data());
                    if (tiled)
                        conv.keepColumns(workspace, n, g * cinPerGroup, cinPerGroup);
                    else
                        workspace.columnsKept = false;
                }
                columns = workspace.columns.data();
            }
            float* out = at(y, {n, m0, y.lo[2], y.lo[3]});
            // With a Relu or Clip to fold, the bias joins it after the product (one pass);
            // without, it is filled in before (per-op's large tiles: a pass after the product
            // measured 6% slower on MobileNetV2's pointwise convolutions).
            const bool fillFirst = b && !foldsIntoBias(epilogue);
            if (fillFirst)
                for (i64 m = m0; m < m1; ++m)
                    std::fill(out + (m - m0) * positions, out + (m - m0 + 1) * positions,
                              *at(*b, {m}));
            matrixProduct(false, false, m1 - m0, positions, k, 1.0f, at(w, {m0, 0, 0, 0}), k,
                          columns, ldb, fillFirst ? 1.0f : 0.0f, out, positions);
            const std::size_t maps =
                biasAndMaps(out, m1 - m0, positions, b && !fillFirst ? at(*b, {m0}) : nullptr,
                            b ? b->stride[0] : 0, false, epilogue);
            if (stepsDone)
                *stepsDone = maps;
        }
    }
    return true;
}

bool fastGemm(const rt::View<float>& y, const rt::View<float>& a, const rt::View<float>& b,
              const rt::View<float>* c, const compiler::KernelCall& call) {
    const bool ta = call.transA, tb = call.transB;
    const i64 k = ta ? a.full[0] : a.full[1];
    const i64 i0 = y.lo[0], rows = y.ext[0], j0 = y.lo[1], cols = y.ext[1];
    if (y.rank != 2 || a.rank != 2 || b.rank != 2)
        return false;
    if (!(ta ? whole(a, 0) && holds(a, 1, i0, rows) : whole(a, 1) && holds(a, 0, i0, rows)))
        return false;
    if (!(tb ? whole(b, 1) && holds(b, 0, j0, cols) : whole(b, 0) && holds(b, 1, j0, cols)))
        return false;
    if (y.count() == 0)
        return true;
    const float alpha = call.params[0], beta = call.params[1];
    float betaC = 0.0f;
    if (c && beta != 0.0f) {
        i64 ci[2];
        for (i64 i = 0; i < rows; ++i)
            for (i64 j = 0; j < cols; ++j) {
                const i64 yi[2] = {i0 + i, j0 + j};
                rt::broadcastIndex(*c, 2, yi, ci);
                y.data[i * cols + j] = beta * c->at(ci);
            }
        betaC = 1.0f;
    }
    const float* pa = ta ? at(a, {0, i0}) : at(a, {i0, 0});
    const float* pb = tb ? at(b, {j0, 0}) : at(b, {0, j0});
    matrixProduct(ta, tb, rows, cols, k, alpha, pa, a.stride[0], pb, b.stride[0], betaC, y.data,
                  y.stride[0]);
    return true;
}

namespace {

// The one step between consecutive rows when the dims 0..last of a box (strides `stride`,
// extents `ext`) are walked row-major, or 0 when they are not evenly spaced or there is one row.
i64 evenRowStep(const i64* stride, const i64* ext, int last) {
    i64 step = 0, inner = 1;
    for (int d = last; d >= 0; --d) {
        if (ext[d] == 1)
            continue;
        if (step == 0)
            step = stride[d];
        else if (stride[d] != step * inner)
            return 0;
        inner *= ext[d];
    }
    return step;
}

} // namespace

i64 foldedMatMulRows(const rt::View<float>& y, const rt::View<float>& a, const rt::View<float>& b) {
    const int r = y.rank, rb = b.rank;
    if (a.rank != r || r < 3)
        return 0;
    for (int d = 0; d < rb - 2; ++d)
        if (b.full[d] != 1)
            return 0;
    i64 rows = 1;
    for (int d = 0; d < r - 2; ++d) {
        if (a.full[d] != y.full[d] || !holds(a, d, y.lo[d], y.ext[d]))
            return 0;
        rows *= y.ext[d];
    }
    rows *= y.ext[r - 2];
    const i64 aStep = evenRowStep(a.stride, y.ext, r - 2);
    const i64 yStep = evenRowStep(y.stride, y.ext, r - 2);
    if (rows < 2 || aStep < a.full[r - 1] || yStep < y.ext[r - 1])
        return 0;
    return rows;
}

bool fastMatMul(const rt::View<float>& y, const rt::View<float>& a, const rt::View<float>& b) {
    const int r = y.rank, ra = a.rank, rb = b.rank;
    if (r < 2 || ra < 2 || rb < 2)
        return false;
    const i64 k = a.full[ra - 1];
    const i64 rows = y.ext[r - 2], cols = y.ext[r - 1];
    if (!whole(a, ra - 1) || !holds(a, ra - 2, y.lo[r - 2], rows))
        return false;
    if (!whole(b, rb - 2) || !holds(b, rb - 1, y.lo[r - 1], cols))
        return false;
    if (y.count() == 0)
        return true;
    // One weight matrix for every batch, batches of rows evenly spaced: one product of all the
    // rows. ViT's attention input [197, 1, 768] times [768, 2304] ran as 197 one-row products at
    // ~25 GFLOP/s, 65% of its compute time.
    if (const i64 folded = foldedMatMulRows(y, a, b)) {
        i64 ai[rt::kMaxRank], bi[rt::kMaxRank] = {};
        std::copy(y.lo, y.lo + r, ai);
        ai[r - 1] = 0;
        bi[rb - 1] = y.lo[r - 1];
        matrixProduct(false, false, folded, cols, k, 1.0f, a.data + a.offset(ai),
                      evenRowStep(a.stride, y.ext, r - 2), b.data + b.offset(bi), b.stride[rb - 2],
                      0.0f, &y.at(y.lo), evenRowStep(y.stride, y.ext, r - 2));
        return true;
    }
    rt::View<float> batches = y;
    batches.ext[r - 2] = batches.ext[r - 1] = 1;
    bool fits = true;
    i64 ai[rt::kMaxRank], bi[rt::kMaxRank];
    rt::forEachIndex(batches, [&](const i64* yi) {
        rt::broadcastIndex(a, r, yi, ai);
        rt::broadcastIndex(b, r, yi, bi);
        ai[ra - 2] = y.lo[r - 2];
        ai[ra - 1] = 0;
        bi[rb - 2] = 0;
        bi[rb - 1] = y.lo[r - 1];
        for (int d = 0; d < ra - 2; ++d)
            fits = fits && ai[d] >= a.lo[d] && ai[d] < a.lo[d] + a.ext[d];
        for (int d = 0; d < rb - 2; ++d)
            fits = fits && bi[d] >= b.lo[d] && bi[d] < b.lo[d] + b.ext[d];
        if (!fits)
            return;
        matrixProduct(false, false, rows, cols, k, 1.0f, a.data + a.offset(ai), a.stride[ra - 2],
                      b.data + b.offset(bi), b.stride[rb - 2], 0.0f, &y.at(yi), y.stride[r - 2]);
    });
    return fits;
}

} // namespace strata::runtime
