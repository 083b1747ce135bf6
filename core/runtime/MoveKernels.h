#pragma once
// Reshape, Transpose, Slice, Gather, Concat and Pad over rows instead of elements. strata_rt's
// loops redo the index arithmetic for every element (Reshape: a division per dim), which made the
// transformer's Reshapes run at ~50 cycles per element and DenseNet's Concats take a third of its
// time; here it is done once per row (Transpose, Slice), per contiguous segment (Reshape) or per
// run of dims both sides lay out contiguously (Concat, Pad), and the elements move by memcpy or a
// strided loop. Same results as strata_rt's loops: both only move elements.

#include "compiler/MergedCopy.h"
#include "runtime/Prepared.h"
#include "runtime/StridedCopy.h"

#include <algorithm>
#include <cstring>

namespace strata::runtime {

// n elements from `in`, `step` apart, to consecutive places at `out`.
template <class T>
void copyRow(T* out, const T* in, rt::i64 n, rt::i64 step) {
    if (step == 1)
        std::memcpy(out, in, static_cast<std::size_t>(n) * sizeof(T));
    else
        for (rt::i64 i = 0; i < n; ++i) out[i] = in[i * step];
}

// y = x reshaped: a run of y's last dim is consecutive in row-major order, so in x it is
// consecutive along x's last dim up to the end of x's box there: one memcpy per such segment.
template <class T>
void reshapeRows(const rt::View<T>& y, const rt::View<T>& x) {
    if (y.rank == 0 || x.rank == 0) return rt::reshape(y, x);
    const int last = y.rank - 1, xLast = x.rank - 1;
    const rt::i64 n = y.ext[last];
    if (n == 0) return;
    rt::View<T> rows = y;
    rows.ext[last] = 1;
    rt::i64 xi[rt::kMaxRank];
    rt::forEachIndex(rows, [&](const rt::i64* yi) {
        rt::i64 flat = 0;
        for (int d = 0; d < y.rank; ++d) flat = flat * y.full[d] + yi[d];
        T* out = &y.at(yi);
        for (rt::i64 done = 0; done < n;) {
            rt::i64 f = flat + done;
            for (int d = xLast; d >= 0; --d) {
                xi[d] = f % x.full[d];
                f /= x.full[d];
            }
            // At least one element, so a box that does not hold the index cannot stall the loop.
            const rt::i64 segment = std::clamp<rt::i64>(x.lo[xLast] + x.ext[xLast] - xi[xLast], 1, n - done);
            std::memcpy(out + done, &x.at(xi), static_cast<std::size_t>(segment) * sizeof(T));
            done += segment;
        }
    });
}

// y[i] = x[i at perm^-1] (output dim d is input dim perm[d]): per row of y, one index into x and
// then a loop stepping x's stride of the input dim y's last dim comes from.
template <class T>
void transposeRows(const rt::View<T>& y, const rt::View<T>& x, const rt::i64* perm) {
    if (y.rank == 0) return rt::transpose(y, x, perm);
    const int last = y.rank - 1;
    const rt::i64 n = y.ext[last];
    if (n == 0) return;
    const rt::i64 step = x.stride[perm[last]];
    rt::View<T> rows = y;
    rows.ext[last] = 1;
    rt::i64 xi[rt::kMaxRank];
    rt::forEachIndex(rows, [&](const rt::i64* yi) {
        for (int d = 0; d < y.rank; ++d) xi[perm[d]] = yi[d];
        copyRow(&y.at(yi), &x.at(xi), n, step);
    });
}

// y[i] = x[starts + i x steps]: per row of y, one index into x and then a loop stepping x's last
// dim by its step.
template <class T>
void sliceRows(const rt::View<T>& y, const rt::View<T>& x, const rt::i64* starts, const rt::i64* steps) {
    if (y.rank == 0) return rt::slice(y, x, starts, steps);
    const int last = y.rank - 1;
    const rt::i64 n = y.ext[last];
    if (n == 0) return;
    const rt::i64 step = x.stride[last] * steps[last];
    rt::View<T> rows = y;
    rows.ext[last] = 1;
    rt::i64 xi[rt::kMaxRank];
    rt::forEachIndex(rows, [&](const rt::i64* yi) {
        for (int d = 0; d < y.rank; ++d) xi[d] = starts[d] + yi[d] * steps[d];
        copyRow(&y.at(yi), &x.at(xi), n, step);
    });
}

// Gather along `axis` (y[a, j, b] = x[a, indices[j], b]) when y's last dim is one of x's dims
// after `axis`: each row of y reads one index and is then one strided copy from x. Swin's
// q/k/v split (Gather of one index from [3, ...]) ran strata_rt's element loop at ~10 ns per
// element. A gather along x's last dim (rows of indices) keeps that loop. An index outside
// x's box gives zeros, as strata_rt's does.
template <class T, class I>
void gatherRows(const rt::View<T>& y, const rt::View<T>& x, const rt::View<I>& indices, int axis) {
    const int q = indices.rank, last = y.rank - 1;
    if (y.rank == 0 || last < axis + q)
        return rt::gather(y, x, indices, axis);
    const rt::i64 n = y.ext[last];
    if (n == 0)
        return;
    const rt::i64 step = x.stride[x.rank - 1];
    rt::View<T> rows = y;
    rows.ext[last] = 1;
    rt::i64 xi[rt::kMaxRank], ii[rt::kMaxRank] = {};
    rt::forEachIndex(rows, [&](const rt::i64* yi) {
        for (int d = 0; d < q; ++d)
            ii[d] = yi[axis + d];
        rt::i64 k = static_cast<rt::i64>(indices.at(ii));
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

// Copies the box `ext` from x at index `xAt` to y at index `yAt` (both inside their boxes),
// merged as a transfer's copy is (compiler/MergedCopy.h): contiguous dims become one run.
template <class T>
void moveSubBox(const rt::View<T>& y, const rt::i64* yAt, const rt::View<T>& x, const rt::i64* xAt, const rt::i64* ext) {
    const auto rank = static_cast<std::size_t>(y.rank);
    const compiler::MergedCopy m = compiler::mergeCopyDims(ir::Shape(ext, ext + rank), {y.stride, rank}, {x.stride, rank});
    if (m.empty) return;
    copyBox(reinterpret_cast<unsigned char*>(&y.at(yAt)), m.dstStrides.data(),
            reinterpret_cast<const unsigned char*>(&x.at(xAt)), m.srcStrides.data(), m.extents.data(),
            static_cast<int>(m.extents.size()), sizeof(T));
}

// Concat along `axis`: each input's share of y's box is one sub-box move.
template <class T>
void concatBoxes(const rt::View<T>& y, const rt::View<T>* xs, std::size_t count, int axis) {
    if (y.rank == 0) return rt::concat(y, xs, count, axis);
    rt::i64 yAt[rt::kMaxRank], xAt[rt::kMaxRank], ext[rt::kMaxRank];
    rt::i64 base = 0;
    for (std::size_t i = 0; i < count; base += xs[i].full[axis], ++i) {
        const rt::i64 lo = std::max(y.lo[axis], base);
        const rt::i64 hi = std::min(y.lo[axis] + y.ext[axis], base + xs[i].full[axis]);
        if (lo >= hi) continue;
        std::copy(y.lo, y.lo + y.rank, yAt);
        std::copy(y.ext, y.ext + y.rank, ext);
        yAt[axis] = lo;
        ext[axis] = hi - lo;
        std::copy(yAt, yAt + y.rank, xAt);
        xAt[axis] = lo - base;
        moveSubBox(y, yAt, xs[i], xAt, ext);
    }
}

// Whether v's box lies row-major without gaps.
template <class T>
bool denseBox(const rt::View<T>& v) {
    rt::i64 step = 1;
    for (int d = v.rank; d-- > 0;) {
        if (v.ext[d] > 1 && v.stride[d] != step) return false;
        step *= v.ext[d];
    }
    return true;
}

// Constant-mode Pad: y's box filled with `value`, then the part whose source lies in x moved in.
template <class T>
void padBoxes(const rt::View<T>& y, const rt::View<T>& x, const rt::i64* padBegin, T value) {
    if (y.rank == 0 || y.rank != x.rank || !denseBox(y)) return rt::pad(y, x, padBegin, value);
    std::fill(y.data, y.data + y.count(), value);
    rt::i64 yAt[rt::kMaxRank], xAt[rt::kMaxRank], ext[rt::kMaxRank];
    for (int d = 0; d < y.rank; ++d) {
        yAt[d] = std::max(y.lo[d], padBegin[d]);
        ext[d] = std::min(y.lo[d] + y.ext[d], padBegin[d] + x.full[d]) - yAt[d];
        if (ext[d] <= 0) return;
        xAt[d] = yAt[d] - padBegin[d];
    }
    moveSubBox(y, yAt, x, xAt, ext);
}

} // namespace strata::runtime
