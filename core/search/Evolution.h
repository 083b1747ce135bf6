#pragma once
// The evolutionary search (internal to core/search; see Search.h).

namespace strata::search {

class SearchRun;

// A population seeded with the starts and their mutants. Each generation draws a batch of
// children: two parents by binary tournament, crossover of their block partitions (half of the
// children), then one or two random edits; the population and its valid children are ranked
// (by the objective, or for Pareto by how many of them dominate each, then latency) and the best
// distinct ones survive.
void runEvolution(SearchRun& run);

} // namespace strata::search
