#pragma once
// The contiguous rows a transfer copies, which a target's `row_overhead_cycles` charges for
// (docs/TARGETS.md): tiles with halos are boxes of short rows, and a CPU pays per row.

#include "compiler/Program.h"

#include <cstdint>

namespace strata::emulator {

// The box with its size-1 dims dropped and neighbouring dims merged where both sides are
// contiguous across them, as the host runtime copies it (runtime/Prepared.cpp); then one row per
// index of the outer dims, or one per element when the innermost dim is strided on either side.
// A box of no dims (a transfer without accesses) is one row; an empty box none. Strides absent
// from an access are row-major.
std::uint64_t transferRows(const compiler::Transfer& transfer);

// The cache lines of `lineBytes` the transfer's rows touch on one side (its source, or its
// destination): a row of 56 bytes may straddle two lines, and a store of part of a line makes
// the core read the whole line first. Offsets and strides are the access's own (offset in bytes).
// Bounded work: past kExactLineRows rows the count is the rows' average, from the first ones.
std::uint64_t transferLines(const compiler::Transfer& transfer, bool sourceSide,
                            std::uint64_t lineBytes = 64);
inline constexpr std::uint64_t kExactLineRows = 4096;

// The bytes of one side's memory from the box's first byte to its last, gaps of a strided box
// included ([begin, end), offsets in bytes). An access without a shape spans `bytes` from its offset.
struct ByteSpan {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
};
ByteSpan transferSpan(const compiler::Transfer& transfer, bool sourceSide);

} // namespace strata::emulator
