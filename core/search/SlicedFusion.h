#pragma once
// The fusions the search leaves out by default: a block that fits working memory only with a
// convolution's input channels cut into slices (tiling/BlockTiling.h), where none of its ops
// alone would need slices. Each slice reloads the block's input box, the traffic fusion is meant
// to save; fuse-max refuses the same fusions. `SearchSpace::slicedFusion` lets them in.

#include "ir/Graph.h"
#include "schedule/Analysis.h"
#include "schedule/Schedule.h"
#include "target/Target.h"

namespace strata::search {

// True when some block of `schedule` of two or more ops is computed in slices while every one
// of its ops alone fits without. `analysis` is the schedule's (schedule order); `cache` tiles
// each op alone once.
bool fusionForcesSlices(const schedule::Schedule& schedule,
                        const schedule::ScheduleAnalysis& analysis, const ir::Graph& graph,
                        const target::Target& target, schedule::AnalysisCache& cache);

} // namespace strata::search
