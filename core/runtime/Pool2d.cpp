#include "runtime/Pool2d.h"

#include "runtime/ComputeKernels.h"
#include "runtime/TargetClones.h"

#include <algorithm>
#include <limits>
#include <vector>

namespace strata::runtime {
namespace {

using strata_rt::i64;

// One spatial dim of the window: which input positions an output position's taps read.
struct Axis {
    i64 outLo, outs;       // y's box
    i64 inLo, ins, full;   // x's box and the tensor
    i64 kernel, stride, padBegin, padEnd, dilation;

    i64 input(i64 out, i64 tap) const { return (outLo + out) * stride - padBegin + tap * dilation; }

    // The outputs [first, last] whose tap reads inside the tensor (first > last when none).
    void outputsInside(i64 tap, i64& first, i64& last) const {
        first = 0;
        while (first < outs && input(first, tap) < 0) ++first;
        last = outs - 1;
        while (last >= first && input(last, tap) >= full) --last;
    }

    // Whether x's box holds every position inside the tensor that y's box reads.
    bool held() const {
        if (outs == 0) return true;
        const i64 lo = std::max<i64>(0, input(0, 0)), hi = std::min(full - 1, input(outs - 1, kernel - 1));
        return lo > hi || (inLo <= lo && hi < inLo + ins);
    }

    // Taps of output `out` inside the tensor, and inside the tensor with its padding.
    i64 inside(i64 out) const {
        i64 n = 0;
        for (i64 t = 0; t < kernel; ++t) n += input(out, t) >= 0 && input(out, t) < full;
        return n;
    }
    i64 padded(i64 out) const {
        i64 n = 0;
        for (i64 t = 0; t < kernel; ++t) n += input(out, t) >= -padBegin && input(out, t) < full + padEnd;
        return n;
    }
};

// One output row of a max pool whose window has several rows: the rows its taps read are first
// maxed column by column (contiguous, vector loops), then the column taps read that one row at
// the window's stride. Tap by tap, every row tap repeated its strided reads: ResNet's 3x3
// stride-2 stem pool ran at ~6 GB/s. Max is exact, so only the order of the comparisons changes.
void maxOverRowTaps(const strata_rt::View<float>& x, const Axis& rows, const Axis& cols,
                    const std::vector<i64>& first, const std::vector<i64>& last, const i64* yi,
                    i64 r, float* out, std::vector<float>& rowMax) {
    rowMax.resize(static_cast<std::size_t>(x.ext[3]));
    bool any = false;
    for (i64 th = 0; th < rows.kernel; ++th) {
        const i64 ih = rows.input(r, th);
        if (ih < 0 || ih >= rows.full)
            continue;
        const i64 xi[4] = {yi[0], yi[1], ih, x.lo[3]};
        const float* in = &x.at(xi);
        float* m = rowMax.data();
        if (!any)
            std::copy_n(in, x.ext[3], m);
        else
            for (i64 c = 0; c < x.ext[3]; ++c)
                m[c] = std::max(m[c], in[c]);
        any = true;
    }
    if (!any)
        return;
    const float* row = rowMax.data() - x.lo[3]; // row[c] is column c
    const i64 sw = cols.stride;
    for (i64 tw = 0; tw < cols.kernel; ++tw) {
        if (first[tw] > last[tw])
            continue;
        const float* in = row + cols.input(first[tw], tw);
        float* o = out + first[tw];
        const i64 n = last[tw] - first[tw] + 1;
        for (i64 q = 0; q < n; ++q)
            o[q] = std::max(o[q], in[q * sw]);
    }
}

} // namespace

bool fastPool2d(const strata_rt::View<float>& y, const strata_rt::View<float>& x, const strata_rt::Window2d& w,
                bool isMax, bool countPad, const i64 padEnd[2]) {
    if (y.rank != 4 || x.rank != 4 || x.stride[3] != 1 || y.stride[3] != 1) return false;
    for (int d = 0; d < 2; ++d)
        if (w.kernel[d] < 1 || w.stride[d] < 1 || w.dilation[d] < 1) return false;
    for (int d = 0; d < 2; ++d)
        if (y.lo[d] < x.lo[d] || y.lo[d] + y.ext[d] > x.lo[d] + x.ext[d]) return false;
    const Axis rows{y.lo[2], y.ext[2], x.lo[2], x.ext[2], x.full[2], w.kernel[0], w.stride[0], w.padBegin[0], padEnd[0],
                    w.dilation[0]};
    const Axis cols{y.lo[3], y.ext[3], x.lo[3], x.ext[3], x.full[3], w.kernel[1], w.stride[1], w.padBegin[1], padEnd[1],
                    w.dilation[1]};
    if (!rows.held() || !cols.held()) return false;
    if (y.count() == 0) return true;

    // Per column tap: the output columns it covers and where it reads the first of them.
    std::vector<i64> first(static_cast<std::size_t>(cols.kernel)), last(first.size());
    for (i64 t = 0; t < cols.kernel; ++t) cols.outputsInside(t, first[t], last[t]);
    std::vector<float> columnTaps(static_cast<std::size_t>(cols.outs));
    for (i64 q = 0; q < cols.outs; ++q)
        columnTaps[q] = static_cast<float>(countPad ? cols.padded(q) : cols.inside(q));

    const float start = isMax ? -std::numeric_limits<float>::infinity() : 0.0f;
    static thread_local std::vector<float> rowMax;
    const i64 sw = cols.stride;
    i64 yi[4], xi[4];
    for (yi[0] = y.lo[0]; yi[0] < y.lo[0] + y.ext[0]; ++yi[0])
        for (yi[1] = y.lo[1]; yi[1] < y.lo[1] + y.ext[1]; ++yi[1])
            for (i64 r = 0; r < rows.outs; ++r) {
                yi[2] = rows.outLo + r;
                yi[3] = y.lo[3];
                float* out = &y.at(yi);
                std::fill(out, out + cols.outs, start);
                if (isMax && rows.kernel > 1) {
                    maxOverRowTaps(x, rows, cols, first, last, yi, r, out, rowMax);
                    continue;
                }
                for (i64 th = 0; th < rows.kernel; ++th) {
                    const i64 ih = rows.input(r, th);
                    if (ih < 0 || ih >= rows.full) continue;
                    xi[0] = yi[0];
                    xi[1] = yi[1];
                    xi[2] = ih;
                    xi[3] = x.lo[3];
                    const float* row = &x.at(xi) - x.lo[3]; // row[c] is column c
                    for (i64 tw = 0; tw < cols.kernel; ++tw) {
                        if (first[tw] > last[tw]) continue;
                        const float* in = row + cols.input(first[tw], tw);
                        float* o = out + first[tw];
                        const i64 n = last[tw] - first[tw] + 1;
                        if (isMax)
                            for (i64 q = 0; q < n; ++q) o[q] = std::max(o[q], in[q * sw]);
                        else
                            for (i64 q = 0; q < n; ++q) o[q] = o[q] + in[q * sw];
                    }
                }
                if (!isMax) {
                    const float rowTaps = static_cast<float>(countPad ? rows.padded(r) : rows.inside(r));
                    for (i64 q = 0; q < cols.outs; ++q) out[q] = out[q] / (rowTaps * columnTaps[q]);
                }
            }
    return true;
}

} // namespace strata::runtime

namespace strata::runtime {
namespace {

// strata_rt's reduction of a long plane (reduceRun, what a generated program runs: the same
// bits), compiled for whatever vectors the machine has: 64 partial sums in vectors, where the
// chains of adds over eight planes below read EfficientNet-B0's squeeze-excite inputs (planes of
// 196-12544 floats) at 33 GB/s.
STRATA_CLONED_FOR_X86 float reducePlane(const float* p, strata_rt::i64 n, bool isMax) {
    return strata_rt::runs::reduceRun(p, n, isMax);
}

// Short planes (below strata_rt's kVectorPlane): kLanes channels' planes at once, each summed (or
// maxed) in order, as strata_rt's loop: the channels' chains are independent, so the adds overlap
// instead of each waiting for the last (one chain ran at a quarter of the adder's rate).
constexpr i64 kLanes = 8;

template <bool IsMax>
void poolChannels(float* out, i64 outStride, const float* in, i64 inStride, i64 channels,
                  i64 plane) {
    float acc[kLanes];
    const float* p[kLanes];
    for (i64 c = 0; c < kLanes; ++c) {
        acc[c] = IsMax ? -std::numeric_limits<float>::infinity() : 0.0f;
        p[c] =
            in + std::min(c, channels - 1) * inStride; // past the last channel: repeats it, unused
    }
    for (i64 i = 0; i < plane; ++i)
        for (i64 c = 0; c < kLanes; ++c)
            acc[c] = IsMax ? std::max(acc[c], p[c][i]) : acc[c] + p[c][i];
    for (i64 c = 0; c < channels; ++c)
        out[c * outStride] = IsMax ? acc[c] : acc[c] / static_cast<float>(plane);
}

} // namespace

void globalPoolPlanes(const strata_rt::View<float>& y, const strata_rt::View<float>& x,
                      bool isMax) {
    bool planes = x.rank >= 2 && y.rank == x.rank;
    for (int d = 2; planes && d < y.rank; ++d)
        planes = y.ext[d] == 1 && x.lo[d] == 0 && x.ext[d] == x.full[d];
    for (int d = 0; planes && d < 2; ++d)
        planes = x.lo[d] <= y.lo[d] && y.lo[d] + y.ext[d] <= x.lo[d] + x.ext[d];
    if (!planes)
        return strata_rt::globalPool(y, x, isMax);
    i64 plane = 1;
    for (int d = 2; d < x.rank; ++d)
        plane *= x.ext[d];
    const bool vectors = plane >= strata_rt::runs::kVectorPlane;
    for (i64 n = y.lo[0]; n < y.lo[0] + y.ext[0]; ++n)
        for (i64 c = y.lo[1]; c < y.lo[1] + y.ext[1]; c += vectors ? 1 : kLanes) {
            const i64 channels = std::min(vectors ? 1 : kLanes, y.lo[1] + y.ext[1] - c);
            float* out = y.data + (n - y.lo[0]) * y.stride[0] + (c - y.lo[1]) * y.stride[1];
            const float* in = x.data + (n - x.lo[0]) * x.stride[0] + (c - x.lo[1]) * x.stride[1];
            if (vectors) {
                const float acc = reducePlane(in, plane, isMax);
                *out = isMax ? acc : acc / static_cast<float>(plane);
            } else if (isMax) {
                poolChannels<true>(out, y.stride[1], in, x.stride[1], channels, plane);
            } else {
                poolChannels<false>(out, y.stride[1], in, x.stride[1], channels, plane);
            }
        }
}

STRATA_CLONED_FOR_X86 void globalPoolNhwc(const strata_rt::View<float>& y,
                                          const strata_rt::View<float>& x, bool isMax) {
    strata_rt::globalPoolChannelsLast(strata_rt::inMemoryOrder(y), strata_rt::inMemoryOrder(x),
                                      isMax);
}

} // namespace strata::runtime
