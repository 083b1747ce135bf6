#pragma once
// The runtime's strided copy: what a transfer does. The same result as strata_rt::moveBox (the
// generated C++'s copy), faster on the short rows of depth-first tiles: a 14x14 tile's rows are
// 56 bytes, and moveBox spends more on a library memcpy call and a per-row index computation
// than on the bytes. Here rows are reached by pointer steps and a short row is copied by inline
// fixed-size moves; rows of `kLongRow` bytes or more still go to memcpy.

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace strata::runtime {

inline constexpr std::size_t kLongRow = 256;

// Copies n bytes (best under kLongRow) by fixed-size memcpys, which compile to one or two vector
// moves each: no call, no size dispatch.
inline void copyShortRow(unsigned char* d, const unsigned char* s, std::size_t n) {
    for (; n >= 32; n -= 32, d += 32, s += 32) std::memcpy(d, s, 32);
    if (n >= 16) {
        std::memcpy(d, s, 16);
        d += 16, s += 16, n -= 16;
    }
    if (n >= 8) {
        std::memcpy(d, s, 8);
        d += 8, s += 8, n -= 8;
    }
    if (n >= 4) {
        std::memcpy(d, s, 4);
        d += 4, s += 4, n -= 4;
    }
    for (; n > 0; --n) *d++ = *s++;
}

// Copies the box `shape` (rank <= strata_rt::kMaxRank dims; a dim of 0 copies nothing) from src
// to dst, strides in elements of `elementBytes`, the last dim fastest. rank 0 copies one element.
void copyBox(unsigned char* dst, const std::int64_t* dstStrides, const unsigned char* src,
             const std::int64_t* srcStrides, const std::int64_t* shape, int rank, std::size_t elementBytes);

} // namespace strata::runtime
