// strata_rt's normalisations and reductions on boxes: batch-norm, layer and group norms,
// softmax and reductions over flagged dims. Part of strata_rt.h, which includes it after the
// kernels it builds on (and the C++ emitter inlines it there); not a header of its own.
#pragma once

namespace strata_rt {

// --- normalisation ---------------------------------------------------------------------------

// Inference batch-norm over channel dim 1.
inline void batchNorm(const View<float>& y, const View<float>& x, const View<float>& scale,
                      const View<float>& bias, const View<float>& mean, const View<float>& var,
                      float epsilon) {
    forEachIndex(y, [&](const i64* yi) {
        const i64 c[1] = {yi[1]};
        const float inv = scale.at(c) / std::sqrt(var.at(c) + epsilon);
        y.at(yi) = (x.at(yi) - mean.at(c)) * inv + bias.at(c);
    });
}

// The box with dims from `axis` on covering the whole tensor; visits one normalised group.
template <class T> View<T> outerBox(const View<T>& v, int axis) {
    View<T> outer = v;
    for (int d = axis; d < v.rank; ++d) {
        outer.lo[d] = 0;
        outer.ext[d] = 1;
    }
    return outer;
}

// The part of `v`'s box that shares `outerIdx` on dims [0, axis); with `whole`, dims from
// `axis` on span the whole tensor instead of the box.
template <class T> View<T> groupBox(const View<T>& v, int axis, const i64* outerIdx, bool whole) {
    View<T> group = v;
    for (int d = 0; d < axis; ++d) {
        group.lo[d] = outerIdx[d];
        group.ext[d] = 1;
    }
    for (int d = axis; whole && d < v.rank; ++d) {
        group.lo[d] = 0;
        group.ext[d] = v.full[d];
    }
    return group;
}

// Normalises over dims [axis, rank), then scale and bias broadcast over those dims. Accumulates
// in double: the group may be long.
inline void layerNorm(const View<float>& y, const View<float>& x, const View<float>& scale,
                      const View<float>* bias, int axis, float epsilon) {
    i64 si[kMaxRank];
    forEachIndex(outerBox(y, axis), [&](const i64* outer) {
        double sum = 0, sq = 0;
        i64 n = 0;
        forEachIndex(groupBox(x, axis, outer, true), [&](const i64* xi) {
            const double v = x.at(xi);
            sum += v;
            sq += v * v;
            ++n;
        });
        const double mean = sum / static_cast<double>(n);
        const double var = std::max(0.0, sq / static_cast<double>(n) - mean * mean);
        const float inv = static_cast<float>(1.0 / std::sqrt(var + epsilon));
        forEachIndex(groupBox(y, axis, outer, false), [&](const i64* yi) {
            broadcastIndex(scale, y.rank, yi, si);
            float v = (x.at(yi) - static_cast<float>(mean)) * inv * scale.at(si);
            if (bias) {
                broadcastIndex(*bias, y.rank, yi, si);
                v += bias->at(si);
            }
            y.at(yi) = v;
        });
    });
}

// Softmax along one axis (opset >= 13 semantics): each output row needs its whole axis.
inline void softmax(const View<float>& y, const View<float>& x, int axis) {
    View<float> rows = y;
    rows.ext[axis] = 1;
    rows.lo[axis] = 0;
    i64 idx[kMaxRank];
    forEachIndex(rows, [&](const i64* r) {
        std::copy(r, r + y.rank, idx);
        float peak = -std::numeric_limits<float>::infinity();
        for (idx[axis] = 0; idx[axis] < x.full[axis]; ++idx[axis])
            peak = std::max(peak, x.at(idx));
        double sum = 0;
        for (idx[axis] = 0; idx[axis] < x.full[axis]; ++idx[axis])
            sum += std::exp(x.at(idx) - peak);
        for (idx[axis] = y.lo[axis]; idx[axis] < y.lo[axis] + y.ext[axis]; ++idx[axis])
            y.at(idx) = static_cast<float>(std::exp(x.at(idx) - peak) / sum);
    });
}

enum class Reduce { Sum, Mean, Max, Min };

// Reduces the dims flagged in `axes` (a bit per input dim); keepDims keeps them as size 1.
inline void reduce(const View<float>& y, const View<float>& x, unsigned axes, bool keepDims,
                   Reduce kind) {
    i64 xi[kMaxRank];
    forEachIndex(y, [&](const i64* yi) {
        View<float> group = x;
        for (int d = 0, o = 0; d < x.rank; ++d) {
            if (axes >> d & 1u) {
                group.lo[d] = 0;
                group.ext[d] = x.full[d];
                o += keepDims;
            } else {
                group.lo[d] = yi[o++];
                group.ext[d] = 1;
            }
        }
        double acc = kind == Reduce::Max ? -INFINITY : kind == Reduce::Min ? INFINITY : 0.0;
        i64 n = 0;
        forEachIndex(group, [&](const i64* gi) {
            std::copy(gi, gi + x.rank, xi);
            const double v = x.at(xi);
            acc = kind == Reduce::Max   ? std::max(acc, v)
                  : kind == Reduce::Min ? std::min(acc, v)
                                        : acc + v;
            ++n;
        });
        y.at(yi) = static_cast<float>(kind == Reduce::Mean ? acc / static_cast<double>(n) : acc);
    });
}

} // namespace strata_rt
