#pragma once
// Which loads read rows that cores stored a block or more before, another core among them
// (target::ReadKind::Shared): on a CPU those rows sit in the other core's cache or the shared
// one, not in main memory. On the host such reads took ~300 ns below 4 KiB (the other core's
// lines are fetched one by one, 3x a main-memory read's latency) and ran at ~19 B/ns above 16
// KiB (faster than main memory's 16, with no contention for it): priced as main-memory reads
// they were 1.45x too slow in the zoo's two-core schedules (docs/ACCURACY.md, "Rows another core
// stored").
//
// Over every core's stream in barrier order (a store before a barrier precedes every core's
// transfers after it): a load of one row out of main memory still priced as any other read
// reads such rows when at least 90% of its region are stores of the same tensor made before (by
// its own core earlier, or by any core before the last barrier) while the storing core moved
// fewer bytes since than its working memory holds, and some of them are another core's.

#include "compiler/Program.h"
#include "emulator/ProgramCheck.h"
#include "target/Target.h"

#include <vector>

namespace strata::emulator {

// Marks those loads among `steps` (checkProgram's, for `program`, after markCachedReads) on
// paths with shared_reads figures, and moves their latency and ramp to those figures'.
void markSharedReads(const compiler::Program& program, const target::Target& target,
                     std::vector<Step>& steps);

} // namespace strata::emulator
