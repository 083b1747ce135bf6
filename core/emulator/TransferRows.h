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

} // namespace strata::emulator
