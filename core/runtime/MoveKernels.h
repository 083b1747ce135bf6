#pragma once
// Concat and Pad as strata_rt's box moves (strata_rt_movement.h, shared with the generated C++) on
// the runtime's own strided copy; ComputeKernels passes the same copy to strata_rt's Reshape,
// Slice, Split and Transpose box moves. Gather by rows is strata_rt's.

#include "compiler/MergedCopy.h"
#include "runtime/Prepared.h"
#include "runtime/StridedCopy.h"

namespace strata::runtime {

// strata_rt's box moves on the runtime's strided copy (short rows by inline moves), with the
// dims merged as a transfer's copy is (compiler/MergedCopy.h).
struct MergedStridedCopy {
    void operator()(void* dst, const rt::i64* ds, const void* src, const rt::i64* ss,
                    const rt::i64* n, int rank, std::size_t bytes) const {
        const auto dims = static_cast<std::size_t>(rank);
        const compiler::MergedCopy m =
            compiler::mergeCopyDims(ir::Shape(n, n + dims), {ds, dims}, {ss, dims});
        if (m.empty)
            return;
        copyBox(static_cast<unsigned char*>(dst), m.dstStrides.data(),
                static_cast<const unsigned char*>(src), m.srcStrides.data(), m.extents.data(),
                static_cast<int>(m.extents.size()), bytes);
    }
};

template <class T>
void concatBoxes(const rt::View<T>& y, const rt::View<T>* xs, std::size_t count, int axis) {
    rt::concatBoxes(y, xs, count, axis, MergedStridedCopy{});
}

template <class T>
void padBoxes(const rt::View<T>& y, const rt::View<T>& x, const rt::i64* padBegin, T value) {
    rt::padBoxes(y, x, padBegin, value, MergedStridedCopy{});
}

} // namespace strata::runtime
