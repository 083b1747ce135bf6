#pragma once
// Reshape, Transpose and Slice over rows instead of elements. strata_rt's loops redo the index
// arithmetic for every element (Reshape: a division per dim), which made the transformer's
// Reshapes run at ~50 cycles per element; here it is done once per row (Transpose, Slice) or per
// contiguous segment (Reshape) and the elements move by memcpy or a strided loop. Same results
// as strata_rt's loops: both only move elements.

#include "runtime/Prepared.h"

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

} // namespace strata::runtime
