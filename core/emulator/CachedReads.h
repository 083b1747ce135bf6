#pragma once
// Which loads read bytes still in the issuing core's cache (target::ReadKind::Cached): a CPU's
// core finds an activation it has just stored in its own cache and reads it several times faster
// than one it must fetch from farther out (docs/EMULATOR.md, "Kinds of read").
//
// A reuse-distance model of each core's cache, in stream order: a tensor region the core loaded
// or stored is still cached while it has moved fewer bytes since than its working memory holds
// (on the host target, the probed per-core cache). A load out of main memory of one row is
// cached when at least 90% of its region is such regions of the same tensor moved by the same
// core (a tile whose other half the other core stored is paced by that half). Before 2026-11-29
// only regions the core had stored counted: DenseNet's concatenated features, read again by every
// layer of a dense block, were priced as reads from memory, 2.2-2.3x their measured time.
//
// And which stores write lines still in the issuing core's cache (target::ReadKind::CachedWrite):
// at least 90% of the bytes from its first to its last were moved (loaded or stored) by the same
// core within the same distance, whatever tensor they held then (RecentSpans.h). Such a store
// hits; one into lines the core does not hold fetches each line first, 2-3x slower on the host.
//
// Either kind records its reuse distance (Step::reuseBytes: bytes the core moved since it last
// moved those lines). One farther back than the core's private cache (target::Target::
// privateCacheBytes, the host's L2) finds its lines in the shared cache or memory: where its
// figures have rates by distance (target::DistanceRate) it pays the rate for its distance, else
// the spill's rate for every byte. On the host such reads ran at 18 B/ns at 1-4 MiB of traffic
// since and 14 at 4-16 MiB, where the spill's rate priced all of them at 11 (docs/ACCURACY.md,
// "Cached reads by reuse distance").

#include "compiler/Program.h"
#include "emulator/ProgramCheck.h"
#include "target/Target.h"

#include <vector>

namespace strata::emulator {

// Marks the cached loads among `steps` (checkProgram's, for `program`) on paths with
// cached_reads figures, and the cached stores on paths with cached_writes figures, and moves
// their latency to those figures'. Nothing to do without them.
void markCachedReads(const compiler::Program& program, const target::Target& target, std::vector<Step>& steps);

// A copy of `target` whose paths reading main memory have weight and cached read figures, and
// whose paths writing it cached-write figures (the path's own where it has none): checked
// against it, a program's steps tell every kind of transfer apart, as calibration sorts its
// samples and the Transfers tab groups events.
target::Target withEveryKindPriced(const target::Target& target);

} // namespace strata::emulator
