#pragma once
// What compiling, emulating or running a schedule will need, estimated from its analysis before
// any of it starts, and refused with the figure and the limit when it is over a documented limit
// (docs/SCHEDULES.md, "Resource limits") instead of failing half-way on bad_alloc or on thread
// creation. The per-block tile cap (tiling::kMaxTilesPerBlock) bounds one block; these bound the
// whole program.

#include "base/Diagnostic.h"
#include "ir/Graph.h"
#include "schedule/Analysis.h"
#include "target/Target.h"

#include <cstdint>
#include <vector>

namespace strata::schedule {

// Events of the program's timeline, estimated as kEventsPerTile per tile (loads, compute,
// stores) plus kEventsPerCoreBlock per core of each block (waits, barriers), measured on
// resnet_tiny over 8 to 65,536 cores. Compile and emulation keep about 1 KiB per event
// (2.7 GB for 2.76 M events), so the limit is about 2 GiB; the largest of the 31 zoo models on
// the presets (wide_resnet50_2 on mncore2, 92,421 tiles) is under 400,000.
inline constexpr std::int64_t kMaxProgramEvents = std::int64_t(1) << 21;
inline constexpr std::int64_t kEventsPerTile = 4;
inline constexpr std::int64_t kEventsPerCoreBlock = 10;
// Cores times values: the compiler's race check keeps a table of every value per core.
inline constexpr std::int64_t kMaxCoreValueSlots = std::int64_t(1) << 28;
// Running on this computer starts one pinned thread per core of the target.
inline constexpr int kMaxRunThreadsPerCpu = 4;

struct ResourceEstimate {
    std::int64_t tiles = 0;      // over all blocks
    std::int64_t coreBlocks = 0; // each block's mp, summed
    std::int64_t events = 0;     // tiles and core-blocks weighted as above
    int cores = 0;               // the target's
    std::int64_t coreValueSlots = 0;
};

ResourceEstimate estimateResources(const ScheduleAnalysis& analysis, const ir::Graph& graph,
                                   const target::Target& target, const Schedule& schedule);

// Errors for every estimate over its limit; empty when the schedule may be compiled and
// emulated. `forRun` adds the bound on host threads (hardware threads x kMaxRunThreadsPerCpu).
std::vector<Diagnostic> checkResourceBudget(const Schedule& schedule, const ir::Graph& graph,
                                            const target::Target& target, bool forRun = false);

} // namespace strata::schedule
