#pragma once
// Stores into lines another core holds (docs/EMULATOR.md, "Stores into lines another core
// holds"). A store into lines its core moved a moment ago is priced within that core's private
// cache (CachedReads.h, CachedWrites); but when another core has read or written those lines
// since, they sit in that core's cache, and the store must take them from it first: on the host,
// such stores of 16 KiB-1 MiB ran at 23-24 B/ns, as fast as stores into lines past the private
// cache (24-25 B/ns), where the emulator priced them at the private cache's 43 (0.58-0.71 of
// their measured time, 5,300 of the zoo's two-core transfers).
//
// Over every core's stream in barrier order (BarrierSegments.h): a store priced as a cached
// write within the private cache takes the cached writes' rate past it (target::ReadFigures::
// byReuseDistance, at the private cache's size) when at least 90% of its span were moved by
// other cores in earlier segments, within their own private cache's worth of traffic since,
// and after its core last stored into them.

#include "compiler/Program.h"
#include "emulator/ProgramCheck.h"
#include "target/Target.h"

#include <vector>

namespace strata::emulator {

// Adds those stores' extra cycles to `steps` (checkProgram's, for `program`, after
// markCachedReads). Nothing on a target without a private cache or rates by reuse distance.
void chargeStoresIntoOtherCoresLines(const compiler::Program& program, const target::Target& target,
                                     std::vector<Step>& steps);

} // namespace strata::emulator
