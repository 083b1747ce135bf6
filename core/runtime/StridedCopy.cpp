#include "runtime/StridedCopy.h"

#include "compiler/emit/cpp/strata_rt.h"

#include <cstring>

namespace strata::runtime {
namespace {

using i64 = std::int64_t;

// `rows` rows of `bytes` each, `dstStep` and `srcStep` bytes apart.
template <bool Short>
void copyRows(unsigned char* d, i64 dstStep, const unsigned char* s, i64 srcStep, i64 rows, std::size_t bytes) {
    for (i64 r = 0; r < rows; ++r, d += dstStep, s += srcStep) {
        if constexpr (Short)
            copyShortRow(d, s, bytes);
        else
            std::memcpy(d, s, bytes);
    }
}

} // namespace

void copyBox(unsigned char* dst, const i64* dstStrides, const unsigned char* src, const i64* srcStrides, const i64* shape,
             int rank, std::size_t elementBytes) {
    for (int d = 0; d < rank; ++d)
        if (shape[d] <= 0) return;
    const auto e = static_cast<i64>(elementBytes);
    // A row: the last dim when both sides lay it out contiguously, else one element.
    const bool contiguous = rank > 0 && dstStrides[rank - 1] == 1 && srcStrides[rank - 1] == 1;
    const int rowDims = contiguous ? rank - 1 : rank; // dims walked row by row
    const auto bytes = static_cast<std::size_t>(contiguous ? shape[rank - 1] * e : e);
    if (rowDims == 0) {
        std::memcpy(dst, src, bytes);
        return;
    }
    // The innermost walked dim is a loop of pointer steps; the ones outside it an odometer of
    // byte offsets.
    const int inner = rowDims - 1;
    const i64 dstStep = dstStrides[inner] * e, srcStep = srcStrides[inner] * e;
    i64 idx[strata_rt::kMaxRank] = {};
    i64 dstOffset = 0, srcOffset = 0;
    for (;;) {
        if (bytes < kLongRow)
            copyRows<true>(dst + dstOffset, dstStep, src + srcOffset, srcStep, shape[inner], bytes);
        else
            copyRows<false>(dst + dstOffset, dstStep, src + srcOffset, srcStep, shape[inner], bytes);
        int d = inner - 1;
        for (; d >= 0; --d) {
            if (++idx[d] < shape[d]) {
                dstOffset += dstStrides[d] * e;
                srcOffset += srcStrides[d] * e;
                break;
            }
            dstOffset -= (shape[d] - 1) * dstStrides[d] * e;
            srcOffset -= (shape[d] - 1) * srcStrides[d] * e;
            idx[d] = 0;
        }
        if (d < 0) return;
    }
}

} // namespace strata::runtime
