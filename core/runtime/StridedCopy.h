#pragma once
// The runtime's strided copy: what a transfer does. The same result as strata_rt::moveBox (the
// generated C++'s copy), faster on the short rows of depth-first tiles: a 14x14 tile's rows are
// 56 bytes, and moveBox spends more on a library memcpy call and a per-row index computation
// than on the bytes. Here rows are reached by pointer steps and a short row is copied by inline
// fixed-size moves; rows of `kLongRow` bytes or more still go to memcpy.

#include <cstddef>
#include <cstdint>

namespace strata::runtime {

inline constexpr std::size_t kLongRow = 256;

// Copies the box `shape` (rank <= strata_rt::kMaxRank dims; a dim of 0 copies nothing) from src
// to dst, strides in elements of `elementBytes`, the last dim fastest. rank 0 copies one element.
void copyBox(unsigned char* dst, const std::int64_t* dstStrides, const unsigned char* src,
             const std::int64_t* srcStrides, const std::int64_t* shape, int rank, std::size_t elementBytes);

} // namespace strata::runtime
