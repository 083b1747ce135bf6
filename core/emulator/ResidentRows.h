#pragma once
// Which reads find their rows in the issuing core's own cache, and the cheaper row cost they pay
// (target::TransferPath::residentRowOverheadCycles; docs/EMULATOR.md, "Resident rows").
//
// A strided read's rows each cost row_overhead_cycles on a CPU: every row starts a run no
// prefetcher foresaw, so its first line is a miss to another core's cache or to memory. When the
// core itself moved those bytes a moment ago (a convolution's output-channel tiles reading the
// same input tile one after another, a tile re-read with its neighbour's halo) the lines are in
// its cache and a row costs a few cycles. Measured on the host (2026-11-26) the models'
// re-reads of 40- to 112-byte rows ran 1.3-1.7x faster than the row overhead fitted on rows
// another core wrote predicted.
//
// The same reuse-distance rule as CachedReads (RecentRegions): walking a core's stream in order
// and counting the bytes it moves, a tensor region it loaded or stored stays resident until the
// core has moved more bytes since than its working memory holds. A read of which a share s of
// its region is resident pays s x rows x resident_row_overhead_cycles + (1 - s) x rows x
// row_overhead_cycles for its rows.

#include "compiler/Program.h"
#include "emulator/ProgramCheck.h"
#include "target/Target.h"

#include <vector>

namespace strata::emulator {

// Lowers the latency part (Step::amount) of the reads among `steps` (checkProgram's, for
// `program`) on paths with resident_row_overhead_cycles by the resident share of their rows'
// overhead. Nothing to do on a target without the figure.
void chargeResidentRows(const compiler::Program& program, const target::Target& target,
                        std::vector<Step>& steps);

} // namespace strata::emulator
