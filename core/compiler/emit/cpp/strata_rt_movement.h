// strata_rt's data movement on boxes: reshape (and its kin), transpose, concat, slice, pad,
// gather, where and resize. Part of strata_rt.h, which
// includes it after the kernels it builds on (and the C++ emitter inlines it there); not a
// header of its own.
#pragma once

namespace strata_rt {

// --- data movement ---------------------------------------------------------------------------

// Reshape, Flatten, Squeeze, Unsqueeze: the same elements in the same row-major order.
template <class T> void reshape(const View<T>& y, const View<T>& x) {
    i64 xi[kMaxRank];
    forEachIndex(y, [&](const i64* yi) {
        i64 flat = 0;
        for (int d = 0; d < y.rank; ++d)
            flat = flat * y.full[d] + yi[d];
        for (int d = x.rank; d-- > 0;) {
            xi[d] = flat % x.full[d];
            flat /= x.full[d];
        }
        y.at(yi) = x.at(xi);
    });
}

// y[i0..in] = x[i at perm^-1]: output dim d is input dim perm[d].
template <class T> void transpose(const View<T>& y, const View<T>& x, const i64* perm) {
    i64 xi[kMaxRank];
    forEachIndex(y, [&](const i64* yi) {
        for (int d = 0; d < y.rank; ++d)
            xi[perm[d]] = yi[d];
        y.at(yi) = x.at(xi);
    });
}
template <class T>
void transpose(const View<T>& y, const View<T>& x, std::initializer_list<i64> perm) {
    transpose(y, x, perm.begin());
}

template <class T> void concat(const View<T>& y, const View<T>* xs, std::size_t count, int axis) {
    i64 xi[kMaxRank];
    forEachIndex(y, [&](const i64* yi) {
        i64 base = 0;
        for (std::size_t i = 0; i < count; ++i) {
            const View<T>& x = xs[i];
            if (yi[axis] < base + x.full[axis]) {
                std::copy(yi, yi + y.rank, xi);
                xi[axis] -= base;
                y.at(yi) = x.at(xi);
                return;
            }
            base += x.full[axis];
        }
    });
}
template <class T> void concat(const View<T>& y, std::initializer_list<View<T>> xs, int axis) {
    concat(y, xs.begin(), xs.size(), axis);
}

// y[i] = x[start + i * step] per dim (the emitter resolves ONNX's starts/ends/axes/steps).
template <class T>
void slice(const View<T>& y, const View<T>& x, const i64* starts, const i64* steps) {
    i64 xi[kMaxRank];
    forEachIndex(y, [&](const i64* yi) {
        for (int d = 0; d < y.rank; ++d)
            xi[d] = starts[d] + yi[d] * steps[d];
        y.at(yi) = x.at(xi);
    });
}
template <class T>
void slice(const View<T>& y, const View<T>& x, std::initializer_list<i64> starts,
           std::initializer_list<i64> steps) {
    slice(y, x, starts.begin(), steps.begin());
}

// Constant-mode Pad: positions outside the input take `value`.
template <class T> void pad(const View<T>& y, const View<T>& x, const i64* padBegin, T value) {
    i64 xi[kMaxRank];
    forEachIndex(y, [&](const i64* yi) {
        bool inside = true;
        for (int d = 0; d < y.rank; ++d) {
            xi[d] = yi[d] - padBegin[d];
            inside = inside && xi[d] >= 0 && xi[d] < x.full[d];
        }
        y.at(yi) = inside ? x.at(xi) : value;
    });
}
template <class T>
void pad(const View<T>& y, const View<T>& x, std::initializer_list<i64> padBegin, T value) {
    pad(y, x, padBegin.begin(), value);
}

// Gather along `axis`: y[a, j, b] = x[a, indices[j], b]; a negative index counts from the end.
// An index outside the tensor (or the box the tile holds) gives zero instead of a stray read.
template <class T, class I>
void gather(const View<T>& y, const View<T>& x, const View<I>& indices, int axis) {
    const int q = indices.rank;
    i64 xi[kMaxRank], ii[kMaxRank] = {};
    forEachIndex(y, [&](const i64* yi) {
        for (int d = 0; d < axis; ++d)
            xi[d] = yi[d];
        for (int d = 0; d < q; ++d)
            ii[d] = yi[axis + d];
        i64 k = static_cast<i64>(indices.at(ii));
        if (k < 0)
            k += x.full[axis];
        if (k < x.lo[axis] || k >= x.lo[axis] + x.ext[axis]) {
            y.at(yi) = T{};
            return;
        }
        xi[axis] = k;
        for (int d = axis + 1; d < x.rank; ++d)
            xi[d] = yi[d + q - 1];
        y.at(yi) = x.at(xi);
    });
}

// Where: y = cond ? a : b, each operand broadcast (numpy rules) to y; cond is bool (one byte).
template <class T>
void where(const View<T>& y, const View<std::uint8_t>& cond, const View<T>& a, const View<T>& b) {
    const i64 sc = innerStep(cond), sa = innerStep(a), sb = innerStep(b);
    forEachRow(y, [&](const i64* idx, T* o, i64 n) {
        const std::uint8_t* cp = rowStart(cond, y.rank, idx, n);
        const T* ap = rowStart(a, y.rank, idx, n);
        const T* bp = rowStart(b, y.rank, idx, n);
        for (i64 i = 0; i < n; ++i)
            o[i] = cp[i * sc] ? ap[i * sa] : bp[i * sb];
    });
}

// Resize: along dim d, coordinate j of y's box (counted from y.lo[d]) sums taps[d] input
// coordinates index[d][j * taps[d] + t] (the tensor's own) times weight[d][j * taps[d] + t]; the
// emitter computes the taps with the reference evaluator's mapping, so every mode (nearest,
// linear, cubic) and coordinate transform agrees with it. A tap of weight 0 is never read (it
// pads a coordinate that has fewer taps).
inline void resize(const View<float>& y, const View<float>& x, const int* taps,
                   const i64* const* index, const float* const* weight) {
    const int rank = y.rank;
    i64 xi[kMaxRank] = {};
    int t[kMaxRank] = {};
    forEachIndex(y, [&](const i64* yi) {
        float acc = 0.0f;
        for (;;) {
            float w = 1.0f;
            for (int d = 0; d < rank; ++d) {
                const i64 k = (yi[d] - y.lo[d]) * taps[d] + t[d];
                xi[d] = index[d][k];
                w *= weight[d][k];
            }
            if (w != 0.0f)
                acc += w * x.at(xi);
            int d = rank - 1;
            while (d >= 0 && ++t[d] == taps[d])
                t[d--] = 0;
            if (d < 0)
                break;
        }
        y.at(yi) = acc;
    });
}

} // namespace strata_rt
