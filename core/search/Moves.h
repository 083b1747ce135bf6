#pragma once
// The search space's moves: one random edit of a schedule (merge, split, move an op across a
// boundary, mp, tile extents, buffering) through the edit operations of schedule/Edits.h, and
// the crossover of two schedules' block partitions. A move that an edit refuses yields nothing;
// the result may still fail validation (the evaluator skips it then).

#include "schedule/Analysis.h"
#include "schedule/Schedule.h"
#include "search/Random.h"
#include "target/Target.h"

#include <optional>
#include <vector>

namespace strata::search {

// Which knobs the search may turn.
struct SearchSpace {
    bool fusion = true; // merge, split, move an op
    bool mp = true;
    bool tiles = true;
    bool buffering = true;
    // Fusions that fit only in input-channel slices where their ops alone need none
    // (search/SlicedFusion.h): left out unless asked for, as fuse-max leaves them out.
    bool slicedFusion = false;
};

// The mp values tried: powers of two up to the target's cores, and the cores themselves.
std::vector<int> mpChoices(const target::Target& target);

// One random edit of `schedule`, or nullopt when the edit drawn was refused (or the space has
// no knob left). `analysis` resolves auto tiles (tile moves start from the tile in use).
std::optional<schedule::Schedule> mutate(const schedule::Schedule& schedule, const ir::Graph& graph,
                                         const target::Target& target, const SearchSpace& space,
                                         Random& random, schedule::AnalysisCache& analysis);

// A child of two schedules of the same graph: cut the ops at a random point of the topological
// order, keep `a`'s blocks wholly before the cut and `b`'s wholly after it (knobs included),
// and give the ops left over the blocks of `a` they were in. nullopt when the child's blocks
// are not convex or cannot be ordered.
std::optional<schedule::Schedule> crossover(const schedule::Schedule& a,
                                            const schedule::Schedule& b, const ir::Graph& graph,
                                            Random& random);

} // namespace strata::search
