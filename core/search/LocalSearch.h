#pragma once
// Hill climbing with restarts (internal to core/search; see Search.h).

namespace strata::search {

class SearchRun;

// Climbs from each start in turn (the best first): draws a batch of neighbours (one random edit
// each) of the current schedule and moves to the best of them when it beats the current one; after
// a few batches without a move it restarts from the next start, perturbed by a few random edits
// once every start has had its unperturbed turn. For the Pareto objective each restart climbs a
// different weighting of latency against DRAM bytes, so the restarts spread along the front.
void runLocalSearch(SearchRun& run);

} // namespace strata::search
