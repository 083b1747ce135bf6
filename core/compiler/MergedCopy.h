#pragma once
// A transfer's box as a copy runs it: size-1 dims dropped and neighbouring dims merged where
// both sides are contiguous across them, outermost first. The host runtime copies it so
// (runtime/Prepared.cpp) and the emulator charges a path's row overhead per row of it
// (emulator/TransferRows.cpp), so both count the same rows.

#include "ir/Graph.h"

#include <cstdint>
#include <span>
#include <vector>

namespace strata::compiler {

struct MergedCopy {
    std::vector<std::int64_t> extents;    // per merged dim, outermost first
    std::vector<std::int64_t> dstStrides; // in elements
    std::vector<std::int64_t> srcStrides;
    bool empty = false;                   // some dim has no elements: nothing moves
};

// The rows a copy of `m` walks: its merged dims but the last when both sides lay that one out
// contiguously (one memcpy per row), else every element; 0 when empty.
std::uint64_t copyRows(const MergedCopy& m);

// `dstStrides` and `srcStrides` have one entry per dim of `shape`.
MergedCopy mergeCopyDims(const ir::Shape& shape, std::span<const std::int64_t> dstStrides,
                         std::span<const std::int64_t> srcStrides);

} // namespace strata::compiler
