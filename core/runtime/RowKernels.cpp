#include "runtime/RowKernels.h"

#include <Eigen/Core>

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

// Calls f(xRow, yRow) for each run of y's box over dims [0, axis).
template <class F>
void forEachRun(const rt::View<float>& y, const rt::View<float>& x, int axis, F&& f) {
    rt::View<float> outer = y;
    for (int d = axis; d < y.rank; ++d) {
        outer.lo[d] = 0;
        outer.ext[d] = 1;
    }
    rt::forEachIndex(outer, [&](const i64* idx) { f(x.data + x.offset(idx), y.data + y.offset(idx)); });
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
    if (!contiguousFrom(x, axis) || !contiguousFrom(y, axis) || !holdsOuter(x, y, axis) || !oneGroup(scale, x, axis) ||
        (bias && !oneGroup(*bias, x, axis)))
        return false;
    const i64 n = runLength(y, axis);
    if (n == 0 || y.count() == 0) return true;
    const float* scaleData = scale.data + scale.offset(scale.lo);
    const float* biasData = bias ? bias->data + bias->offset(bias->lo) : nullptr;
    forEachRun(y, x, axis, [&](const float* in, float* out) {
        const ConstRow row(in, n);
        // Mean and variance in double, as strata_rt's loop: a group may hold thousands of elements.
        const double mean = row.cast<double>().mean();
        const double var = (row.cast<double>() - mean).square().mean();
        const float inv = static_cast<float>(1.0 / std::sqrt(var + epsilon));
        Row result(out, n);
        result = (row - static_cast<float>(mean)) * inv * ConstRow(scaleData, n);
        if (biasData) result += ConstRow(biasData, n);
    });
    return true;
}

} // namespace strata::runtime
