#include "runtime/NormKernels.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

namespace strata::runtime {
namespace {

using rt::i64;
using ConstRow = Eigen::Map<const Eigen::ArrayXf>;
using Row = Eigen::Map<Eigen::ArrayXf>;

// Whether dims [from, rank) of v's box span the whole tensor and lie row-major without gaps, so
// each index of the dims before `from` starts one contiguous run.
bool contiguousFrom(const rt::View<float>& v, int from) {
    if (from < 0 || from >= v.rank || v.stride[v.rank - 1] != 1) return false;
    for (int d = from; d < v.rank; ++d) {
        if (v.lo[d] != 0 || v.ext[d] != v.full[d]) return false;
        if (d + 1 < v.rank && v.stride[d] != v.stride[d + 1] * v.ext[d + 1]) return false;
    }
    return true;
}

// Whether x's box holds y's on dims [0, axis), so every row of y has its source in x.
bool holdsOuter(const rt::View<float>& x, const rt::View<float>& y, int axis) {
    if (x.rank != y.rank) return false;
    for (int d = 0; d < axis; ++d)
        if (y.lo[d] < x.lo[d] || y.lo[d] + y.ext[d] > x.lo[d] + x.ext[d]) return false;
    return true;
}

i64 runLength(const rt::View<float>& v, int from) {
    i64 n = 1;
    for (int d = from; d < v.rank; ++d) n *= v.ext[d];
    return n;
}

// Calls f(xRow, yRow) for each run of y's box over dims [0, axis): x's whole row and y's first
// element (the row's start, or where y's slice of it starts).
template <class F>
void forEachRun(const rt::View<float>& y, const rt::View<float>& x, int axis, F&& f) {
    rt::View<float> outer = y;
    for (int d = axis; d < y.rank; ++d)
        outer.ext[d] = 1;
    rt::forEachIndex(outer, [&](const i64* idx) {
        i64 rowStart[rt::kMaxRank];
        for (int d = 0; d < x.rank; ++d)
            rowStart[d] = d < axis ? idx[d] : 0;
        f(x.data + x.offset(rowStart), y.data + y.offset(idx));
    });
}

// Whether y's box covers a slice of the last dim only, the normalized one: the compiler may tile a
// layer norm's output along it (ViT-B/16's 1x197x768 into 1x197x192 tiles), each tile then
// reading whole rows. The loop took those 30x slower than this kernel.
bool lastDimSlice(const rt::View<float>& y, int axis) {
    return axis == y.rank - 1 && y.stride[y.rank - 1] == 1;
}

// Whether `s` (scale or bias) holds exactly one group of x's dims [axis, rank), contiguous, with
// any leading dims of size 1 (ONNX broadcasts it over the rows).
bool oneGroup(const rt::View<float>& s, const rt::View<float>& x, int axis) {
    const int group = x.rank - axis;
    if (s.rank < group) return false;
    const int lead = s.rank - group;
    for (int d = 0; d < lead; ++d)
        if (s.full[d] != 1) return false;
    for (int i = 0; i < group; ++i)
        if (s.full[lead + i] != x.full[axis + i]) return false;
    return contiguousFrom(s, lead);
}

// Where elements [start, start + n) of the last dim of `s` (scale or bias, any leading dims of
// size 1) lie, or null when s's box does not hold them contiguously.
const float* sliceOf(const rt::View<float>& s, i64 start, i64 n) {
    if (s.rank < 1 || s.stride[s.rank - 1] != 1)
        return nullptr;
    for (int d = 0; d + 1 < s.rank; ++d)
        if (s.full[d] != 1)
            return nullptr;
    const int last = s.rank - 1;
    if (start < s.lo[last] || start + n > s.lo[last] + s.ext[last])
        return nullptr;
    return s.data + (start - s.lo[last]);
}

// Whether the 1-D per-channel operand v holds channels [lo, lo + n).
bool holdsChannels(const rt::View<float>& v, i64 lo, i64 n) {
    return v.rank == 1 && v.stride[0] == 1 && v.lo[0] <= lo && lo + n <= v.lo[0] + v.ext[0];
}

} // namespace

bool fastSoftmax(const rt::View<float>& y, const rt::View<float>& x, int axis) {
    if (axis != y.rank - 1 || !contiguousFrom(x, axis) || !contiguousFrom(y, axis) || !holdsOuter(x, y, axis))
        return false;
    const i64 n = y.ext[axis];
    if (n == 0 || y.count() == 0) return true;
    forEachRun(y, x, axis, [n](const float* in, float* out) {
        const ConstRow row(in, n);
        Row result(out, n);
        const float peak = row.maxCoeff();
        result = (row - peak).exp();
        result /= result.sum();
    });
    return true;
}

bool fastLayerNorm(const rt::View<float>& y, const rt::View<float>& x, const rt::View<float>& scale,
                   const rt::View<float>* bias, int axis, float epsilon) {
    const bool wholeRows = contiguousFrom(y, axis);
    if (!contiguousFrom(x, axis) || !(wholeRows || lastDimSlice(y, axis)) ||
        !holdsOuter(x, y, axis))
        return false;
    const i64 n = runLength(x, axis);
    // y's part of each row: all of it, or a slice of the last dim (scale and bias then hold at
    // least that slice).
    const i64 sliceStart = wholeRows ? 0 : y.lo[axis], written = wholeRows ? n : y.ext[axis];
    const float* scaleData =
        wholeRows ? (oneGroup(scale, x, axis) ? scale.data + scale.offset(scale.lo) : nullptr)
                  : sliceOf(scale, sliceStart, written);
    const float* biasData =
        !bias       ? nullptr
        : wholeRows ? (oneGroup(*bias, x, axis) ? bias->data + bias->offset(bias->lo) : nullptr)
                    : sliceOf(*bias, sliceStart, written);
    if (!scaleData || (bias && !biasData))
        return false;
    if (n == 0 || y.count() == 0)
        return true;
    forEachRun(y, x, axis, [&](const float* in, float* out) {
        const ConstRow row(in, n);
        // Mean and variance in float vectors by the corrected two-pass scheme (Chan, Golub and
        // LeVeque): a first mean, then the residuals' sum and sum of squares, whose mean corrects
        // both. A row far from zero loses nothing to cancellation (x^2 sums would), and the
        // rounding of the first mean is what the correction removes. Eigen sums in several
        // vector accumulators, so the error grows with n / 32, not n.
        const float count = static_cast<float>(n);
        const float first = row.sum() / count;
        const float residual = (row - first).sum() / count;
        const float squares = (row - first).square().sum() / count;
        const float mean = first + residual;
        const float var = std::max(0.0f, squares - residual * residual);
        const float inv = 1.0f / std::sqrt(var + epsilon);
        Row result(out, written);
        result = (ConstRow(in + sliceStart, written) - mean) * inv * ConstRow(scaleData, written);
        if (biasData)
            result += ConstRow(biasData, written);
    });
    return true;
}

bool fastBatchNorm(const rt::View<float>& y, const rt::View<float>& x, const rt::View<float>& scale,
                   const rt::View<float>& bias, const rt::View<float>& mean, const rt::View<float>& var, float epsilon) {
    if (y.rank < 2 || x.rank != y.rank || !holdsOuter(x, y, 2)) return false;
    // y's and x's boxes must agree on the dims after the channel, which then form one run each.
    for (int d = 2; d < y.rank; ++d)
        if (x.lo[d] != y.lo[d] || x.ext[d] != y.ext[d]) return false;
    for (const rt::View<float>* v : {&x, &y}) {
        i64 step = 1;
        for (int d = v->rank; d-- > 2;) {
            if (v->stride[d] != step) return false;
            step *= v->ext[d];
        }
    }
    const i64 c0 = y.lo[1], channels = y.ext[1];
    for (const rt::View<float>* v : {&scale, &bias, &mean, &var})
        if (!holdsChannels(*v, c0, channels)) return false;
    const i64 plane = runLength(y, 2);
    i64 yi[rt::kMaxRank] = {}, xi[rt::kMaxRank] = {};
    for (int d = 2; d < y.rank; ++d) xi[d] = yi[d] = y.lo[d];
    for (i64 n = y.lo[0]; n < y.lo[0] + y.ext[0]; ++n)
        for (i64 c = c0; c < c0 + channels; ++c) {
            xi[0] = yi[0] = n;
            xi[1] = yi[1] = c;
            // strata_rt's expression, element for element, so results are bit-identical.
            const i64 at = c;
            const float inv = scale.at(&at) / std::sqrt(var.at(&at) + epsilon);
            const float m = mean.at(&at), b = bias.at(&at);
            const float* in = x.data + x.offset(xi);
            float* out = y.data + y.offset(yi);
            for (i64 i = 0; i < plane; ++i) out[i] = (in[i] - m) * inv + b;
        }
    return true;
}

} // namespace strata::runtime
