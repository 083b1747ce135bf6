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

// --- data movement by rows --------------------------------------------------------------------
// The loops above redo the index arithmetic for every element (Reshape: a division per dim),
// which ran a transformer's Reshapes at ~50 cycles per element and Swin's q/k/v Gather at ~10 ns
// per element. These do it once per row (Transpose, Slice, Gather) or per contiguous segment
// (Reshape) or per run of dims both sides lay out contiguously (Concat, Pad) and move the
// elements by memcpy or a strided loop; the runtime and generated C++ both call them, and they
// fall back to the loops where a row has no single source.

// n elements from `in`, `step` apart, to consecutive places at `out`.
template <class T> void copyRow(T* out, const T* in, i64 n, i64 step) {
    if (step == 1)
        std::memcpy(out, in, static_cast<std::size_t>(n) * sizeof(T));
    else
        for (i64 i = 0; i < n; ++i)
            out[i] = in[i * step];
}

// Whether v's box is one gapless run of the tensor's row-major order laid out densely (dims
// before the last partial one of extent 1, the dims after it whole), and where it starts.
template <class T> bool flatRun(const View<T>& v, i64& first) {
    int partial = -1;
    for (int d = 0; d < v.rank; ++d)
        if (v.ext[d] != v.full[d])
            partial = d;
    i64 step = 1;
    first = 0;
    for (int d = v.rank; d-- > 0;) {
        if ((d < partial && v.ext[d] != 1) || (v.ext[d] > 1 && v.stride[d] != step))
            return false;
        first += v.lo[d] * step;
        step *= v.full[d];
    }
    return true;
}

// y = x reshaped: a run of y's last dim is consecutive in row-major order, so in x it is
// consecutive along x's last dim up to the end of x's box there: one memcpy per such segment.
template <class T> void reshapeRows(const View<T>& y, const View<T>& x) {
    if (y.rank == 0 || x.rank == 0)
        return reshape(y, x);
    // Both boxes one gapless run of the row-major order, y's inside x's: one memcpy (a tile of
    // ShuffleNetV2's channel-shuffle Reshape took 21 us per 180 KB as rows of 28 floats).
    i64 yFirst = 0, xFirst = 0;
    if (flatRun(y, yFirst) && flatRun(x, xFirst) && yFirst >= xFirst &&
        yFirst + y.count() <= xFirst + x.count()) {
        std::memcpy(&y.at(y.lo), x.data + (yFirst - xFirst),
                    static_cast<std::size_t>(y.count()) * sizeof(T));
        return;
    }
    const int last = y.rank - 1, xLast = x.rank - 1;
    const i64 n = y.ext[last];
    if (n == 0)
        return;
    View<T> rows = y;
    rows.ext[last] = 1;
    i64 xi[kMaxRank];
    i64 carried = -1; // the flat index xi holds after the last row
    forEachIndex(rows, [&](const i64* yi) {
        i64 flat = 0;
        for (int d = 0; d < y.rank; ++d)
            flat = flat * y.full[d] + yi[d];
        T* out = &y.at(yi);
        // A row right after the last one starts where its segments left xi; any other by a
        // division per dim.
        if (flat != carried)
            for (i64 f = flat, d = xLast; d >= 0; --d) {
                xi[d] = f % x.full[d];
                f /= x.full[d];
            }
        carried = flat + n;
        for (i64 done = 0; done < n;) {
            // At least one element, so a box that does not hold the index cannot stall the loop.
            const i64 segment =
                std::clamp<i64>(x.lo[xLast] + x.ext[xLast] - xi[xLast], 1, n - done);
            std::memcpy(out + done, &x.at(xi), static_cast<std::size_t>(segment) * sizeof(T));
            done += segment;
            // The next segment's index by carrying, not by a division per dim (MaxViT's window
            // Reshapes read segments of 2 floats).
            xi[xLast] += segment;
            for (int d = xLast; d > 0 && xi[d] >= x.full[d]; --d) {
                xi[d] -= x.full[d];
                ++xi[d - 1];
            }
        }
    });
}

// y[i] = x[i at perm^-1] (output dim d is input dim perm[d]): per row of y, one index into x and
// then a loop stepping x's stride of the input dim y's last dim comes from.
template <class T> void transposeRows(const View<T>& y, const View<T>& x, const i64* perm) {
    if (y.rank == 0)
        return transpose(y, x, perm);
    const int last = y.rank - 1;
    const i64 n = y.ext[last];
    if (n == 0)
        return;
    const i64 step = x.stride[perm[last]];
    View<T> rows = y;
    rows.ext[last] = 1;
    i64 xi[kMaxRank];
    forEachIndex(rows, [&](const i64* yi) {
        for (int d = 0; d < y.rank; ++d)
            xi[perm[d]] = yi[d];
        copyRow(&y.at(yi), &x.at(xi), n, step);
    });
}
template <class T>
void transposeRows(const View<T>& y, const View<T>& x, std::initializer_list<i64> perm) {
    transposeRows(y, x, perm.begin());
}

// y[i] = x[starts + i x steps]: per row of y, one index into x and then a loop stepping x's last
// dim by its step.
template <class T>
void sliceRows(const View<T>& y, const View<T>& x, const i64* starts, const i64* steps) {
    if (y.rank == 0)
        return slice(y, x, starts, steps);
    const int last = y.rank - 1;
    const i64 n = y.ext[last];
    if (n == 0)
        return;
    const i64 step = x.stride[last] * steps[last];
    View<T> rows = y;
    rows.ext[last] = 1;
    i64 xi[kMaxRank];
    forEachIndex(rows, [&](const i64* yi) {
        for (int d = 0; d < y.rank; ++d)
            xi[d] = starts[d] + yi[d] * steps[d];
        copyRow(&y.at(yi), &x.at(xi), n, step);
    });
}
template <class T>
void sliceRows(const View<T>& y, const View<T>& x, std::initializer_list<i64> starts,
               std::initializer_list<i64> steps) {
    sliceRows(y, x, starts.begin(), steps.begin());
}

// Gather along `axis` (y[a, j, b] = x[a, indices[j], b]) when y's last dim is one of x's dims
// after `axis`: each row of y reads one index and is then one strided copy from x. Swin's
// q/k/v split (Gather of one index from [3, ...]) ran strata_rt's element loop at ~10 ns per
// element. A gather along x's last dim (rows of indices) keeps that loop. An index outside
// x's box gives zeros, as strata_rt's does.
template <class T, class I>
void gatherRows(const View<T>& y, const View<T>& x, const View<I>& indices, int axis) {
    const int q = indices.rank, last = y.rank - 1;
    if (y.rank == 0 || last < axis + q)
        return gather(y, x, indices, axis);
    const i64 n = y.ext[last];
    if (n == 0)
        return;
    const i64 step = x.stride[x.rank - 1];
    View<T> rows = y;
    rows.ext[last] = 1;
    i64 xi[kMaxRank], ii[kMaxRank] = {};
    forEachIndex(rows, [&](const i64* yi) {
        for (int d = 0; d < q; ++d)
            ii[d] = yi[axis + d];
        i64 k = static_cast<i64>(indices.at(ii));
        if (k < 0)
            k += x.full[axis];
        T* out = &y.at(yi);
        if (k < x.lo[axis] || k >= x.lo[axis] + x.ext[axis]) {
            std::fill(out, out + n, T{});
            return;
        }
        for (int d = 0; d < axis; ++d)
            xi[d] = yi[d];
        xi[axis] = k;
        for (int d = axis + 1; d < x.rank; ++d)
            xi[d] = yi[d + q - 1];
        copyRow(out, &x.at(xi), n, step);
    });
}

// Moves the box `ext` from x at tensor index `xAt` to y at tensor index `yAt` (both inside their
// boxes) with `copy`, a moveBox-like copy: moveBox here, the host runtime's strided copy there.
template <class T, class Copy>
void moveSubBox(const View<T>& y, const i64* yAt, const View<T>& x, const i64* xAt, const i64* ext,
                Copy&& copy) {
    copy(&y.at(yAt), y.stride, &x.at(xAt), x.stride, ext, y.rank, sizeof(T));
}

struct MoveBoxCopy {
    void operator()(void* dst, const i64* ds, const void* src, const i64* ss, const i64* n,
                    int rank, std::size_t bytes) const {
        moveBox(dst, ds, src, ss, n, rank, bytes);
    }
};

// Concat along `axis`: each input's share of y's box is one sub-box move (DenseNet's Concats
// took a third of its time as the element loop).
template <class T, class Copy = MoveBoxCopy>
void concatBoxes(const View<T>& y, const View<T>* xs, std::size_t count, int axis,
                 Copy&& copy = {}) {
    if (y.rank == 0)
        return concat(y, xs, count, axis);
    i64 yAt[kMaxRank] = {}, xAt[kMaxRank] = {}, ext[kMaxRank] = {};
    i64 base = 0;
    for (std::size_t i = 0; i < count; base += xs[i].full[axis], ++i) {
        const i64 lo = std::max(y.lo[axis], base);
        const i64 hi = std::min(y.lo[axis] + y.ext[axis], base + xs[i].full[axis]);
        if (lo >= hi)
            continue;
        std::copy(y.lo, y.lo + y.rank, yAt);
        std::copy(y.ext, y.ext + y.rank, ext);
        yAt[axis] = lo;
        ext[axis] = hi - lo;
        std::copy(yAt, yAt + y.rank, xAt);
        xAt[axis] = lo - base;
        moveSubBox(y, yAt, xs[i], xAt, ext, copy);
    }
}
template <class T> void concatBoxes(const View<T>& y, std::initializer_list<View<T>> xs, int axis) {
    concatBoxes(y, xs.begin(), xs.size(), axis);
}

// Whether v's box lies row-major without gaps.
template <class T> bool denseBox(const View<T>& v) {
    i64 step = 1;
    for (int d = v.rank; d-- > 0;) {
        if (v.ext[d] > 1 && v.stride[d] != step)
            return false;
        step *= v.ext[d];
    }
    return true;
}

// Constant-mode Pad: y's box filled with `value`, then the part whose source lies in x moved in.
template <class T, class Copy = MoveBoxCopy>
void padBoxes(const View<T>& y, const View<T>& x, const i64* padBegin, T value, Copy&& copy = {}) {
    if (y.rank == 0 || y.rank != x.rank || !denseBox(y))
        return pad(y, x, padBegin, value);
    std::fill(y.data, y.data + y.count(), value);
    i64 yAt[kMaxRank] = {}, xAt[kMaxRank] = {}, ext[kMaxRank] = {};
    for (int d = 0; d < y.rank; ++d) {
        yAt[d] = std::max(y.lo[d], padBegin[d]);
        ext[d] = std::min(y.lo[d] + y.ext[d], padBegin[d] + x.full[d]) - yAt[d];
        if (ext[d] <= 0)
            return;
        xAt[d] = yAt[d] - padBegin[d];
    }
    moveSubBox(y, yAt, x, xAt, ext, copy);
}
template <class T>
void padBoxes(const View<T>& y, const View<T>& x, std::initializer_list<i64> padBegin, T value) {
    padBoxes(y, x, padBegin.begin(), value);
}

// A Reshape as one sub-box move: both shapes split into the factors they share ([1, 256, 14, 14]
// and [1, 256, 2, 7, 2, 7] share 256, 2, 7, 2, 7), and each box a box over those factors. MaxViT's
// window Reshapes copied rows of 7 floats, each with its own index computation.
struct ReshapePlan {
    int rank = 0; // the factors y's box spans (extent above 1), outermost first
    i64 ext[kMaxRank] = {}, dstStride[kMaxRank] = {}, srcStride[kMaxRank] = {};
    i64 srcOffset = 0; // elements from the start of x's box
};

// The factors shared by the sizes `a` and `b` (of equal products), each with the dim of `a` and
// of `b` it comes from; false when the shapes do not split into common factors ([2, 3] and
// [3, 2]) or have more than `cap` of them.
inline bool commonFactors(const i64* a, int aRank, const i64* b, int bRank, i64* factor, int* aDim,
                          int* bDim, int& count, int cap) {
    count = 0;
    int i = 0, j = 0;
    i64 pa = 1, pb = 1;
    for (;;) {
        while (pa == 1 && i < aRank)
            pa = a[i++];
        while (pb == 1 && j < bRank)
            pb = b[j++];
        if (pa <= 0 || pb <= 0)
            return false;
        if (pa == 1 || pb == 1)
            return pa == pb;
        const i64 f = pa % pb == 0 ? pb : pb % pa == 0 ? pa : 0;
        if (f == 0 || count == cap)
            return false;
        factor[count] = f;
        aDim[count] = i - 1;
        bDim[count] = j - 1;
        ++count;
        pa /= f;
        pb /= f;
    }
}

// v's box over the factors of its dims (dimOf[t]: factor t's dim): per factor its first index,
// extent and stride in the box's memory. False when it is not a box over them: within a dim the
// factors inside its one partial factor must be whole and those outside it of extent 1.
template <class T>
bool boxOverFactors(const View<T>& v, const i64* factor, const int* dimOf, int count, i64* lo,
                    i64* ext, i64* stride) {
    for (int d = 0; d < v.rank; ++d) {
        i64 l = v.lo[d], e = v.ext[d], inner = 1;
        bool partial = false;
        for (int t = count; t-- > 0;) {
            if (dimOf[t] != d)
                continue;
            const i64 f = factor[t];
            stride[t] = v.stride[d] * inner;
            inner *= f;
            if (!partial && l % f == 0 && e % f == 0) {
                lo[t] = 0;
                ext[t] = f;
                l /= f;
                e /= f;
                continue;
            }
            if (partial && e != 1)
                return false;
            lo[t] = l % f;
            ext[t] = e;
            if (lo[t] + e > f)
                return false;
            partial = true;
            l /= f;
            e = 1;
        }
    }
    return true;
}

template <class T> bool planReshape(const View<T>& y, const View<T>& x, ReshapePlan& plan) {
    constexpr int cap = 2 * kMaxRank;
    i64 factor[cap], yLo[cap], yExt[cap], yStride[cap], xLo[cap], xExt[cap], xStride[cap];
    int yDim[cap], xDim[cap], count = 0;
    if (!commonFactors(y.full, y.rank, x.full, x.rank, factor, yDim, xDim, count, cap) ||
        !boxOverFactors(y, factor, yDim, count, yLo, yExt, yStride) ||
        !boxOverFactors(x, factor, xDim, count, xLo, xExt, xStride))
        return false;
    plan = {};
    for (int t = 0; t < count; ++t) {
        if (yLo[t] < xLo[t] || yLo[t] + yExt[t] > xLo[t] + xExt[t])
            return false;
        plan.srcOffset += (yLo[t] - xLo[t]) * xStride[t];
        if (yExt[t] == 1)
            continue;
        if (plan.rank == kMaxRank)
            return false;
        plan.ext[plan.rank] = yExt[t];
        plan.dstStride[plan.rank] = yStride[t];
        plan.srcStride[plan.rank] = xStride[t];
        ++plan.rank;
    }
    return true;
}

// y = x reshaped as one sub-box move with `copy` where the boxes line up with the shapes' common
// factors (planReshape), else reshapeRows.
template <class T, class Copy = MoveBoxCopy>
void reshapeBoxes(const View<T>& y, const View<T>& x, Copy&& copy = {}) {
    ReshapePlan plan;
    if (y.rank == 0 || x.rank == 0 || y.count() == 0 || !planReshape(y, x, plan))
        return reshapeRows(y, x);
    copy(&y.at(y.lo), plan.dstStride, x.data + plan.srcOffset, plan.srcStride, plan.ext, plan.rank,
         sizeof(T));
}

// --- data movement as sub-box moves ------------------------------------------------------------
// Slice and Transpose that keep y's last dim contiguous in x are one strided move of y's box
// (with `copy`, as Concat and Pad): runs of dims both sides lay out contiguously become one row,
// where the row loops above copy one row of y's last dim at a time with an index computation
// each. ShuffleNetV2's channel halves (58 of 116 channels of 28 x 28) ran the row loops at 12 GB/s,
// as rows of 112 bytes; they are one 180 KB memcpy.

// y[i] = x[starts + i x steps] with steps > 0 and a step of 1 along the last dim; else sliceRows.
template <class T, class Copy = MoveBoxCopy>
void sliceBoxes(const View<T>& y, const View<T>& x, const i64* starts, const i64* steps,
                Copy&& copy = {}) {
    if (y.rank == 0 || y.rank != x.rank || steps[y.rank - 1] != 1)
        return sliceRows(y, x, starts, steps);
    i64 xAt[kMaxRank] = {}, xStrides[kMaxRank] = {};
    for (int d = 0; d < y.rank; ++d) {
        if (y.ext[d] <= 0)
            return;
        xAt[d] = starts[d] + y.lo[d] * steps[d];
        const i64 last = xAt[d] + (y.ext[d] - 1) * steps[d];
        if (steps[d] <= 0 || xAt[d] < x.lo[d] || last >= x.lo[d] + x.ext[d])
            return sliceRows(y, x, starts, steps);
        xStrides[d] = x.stride[d] * steps[d];
    }
    copy(&y.at(y.lo), y.stride, &x.at(xAt), xStrides, y.ext, y.rank, sizeof(T));
}
template <class T>
void sliceBoxes(const View<T>& y, const View<T>& x, std::initializer_list<i64> starts,
                std::initializer_list<i64> steps) {
    sliceBoxes(y, x, starts.begin(), steps.begin());
}

// y = x transposed by `perm` (output dim d is input dim perm[d]) when the last dim stays last or
// y's rows are short (MaxViT's grid Transposes gather rows of 2 floats, where transposeRows spends
// an index computation per row); else transposeRows, whose strided loop suits long rows gathered
// across x.
inline constexpr i64 kShortGatheredRow = 16;
template <class T, class Copy = MoveBoxCopy>
void transposeBoxes(const View<T>& y, const View<T>& x, const i64* perm, Copy&& copy = {}) {
    if (y.rank == 0 || y.rank != x.rank ||
        (perm[y.rank - 1] != y.rank - 1 && y.ext[y.rank - 1] >= kShortGatheredRow))
        return transposeRows(y, x, perm);
    i64 xAt[kMaxRank] = {}, xStrides[kMaxRank] = {};
    for (int d = 0; d < y.rank; ++d) {
        if (y.ext[d] <= 0)
            return;
        const auto s = static_cast<int>(perm[d]);
        if (y.lo[d] < x.lo[s] || y.lo[d] + y.ext[d] > x.lo[s] + x.ext[s])
            return transposeRows(y, x, perm);
        xAt[s] = y.lo[d];
        xStrides[d] = x.stride[s];
    }
    copy(&y.at(y.lo), y.stride, &x.at(xAt), xStrides, y.ext, y.rank, sizeof(T));
}
template <class T>
void transposeBoxes(const View<T>& y, const View<T>& x, std::initializer_list<i64> perm) {
    transposeBoxes(y, x, perm.begin());
}

} // namespace strata_rt
