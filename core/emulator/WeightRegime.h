#pragma once
// Which figures a model's weight reads use (docs/EMULATOR.md, "Kinds of read"): a model whose
// weights fit the last-level cache finds them there from its last run (warm), one whose weights
// do not reads them out of DRAM every run (cold). On the host, weight reads under 4 KiB take
// 40-250 ns in the first kind and 250-600 ns in the second; one figure cannot price both. And a
// model whose weights take at most half a core's private cache (the other half for the run's
// activations) finds them in that cache (hot): the bundled samples' weight reads (56-200 KiB of
// weights) measured 30-40 ns, against 270 priced cold; they take the cached reads' figures.

#include "ir/Graph.h"
#include "target/Target.h"

#include <cstdint>
#include <optional>

namespace strata::emulator {

// The bytes of the graph's constants that some op reads: what a run streams from memory.
std::uint64_t graphWeightBytes(const ir::Graph& graph);

// Whether the graph's weights take at most half of `target`'s private cache (hot weights).
bool weightsFitPrivateCache(const target::Target& target, const ir::Graph& graph);

// `target` itself, or (in `storage`) a copy of it whose weight reads take another regime's
// figures: cached_reads' where the weights are hot, else warm_weight_reads' on paths whose
// warm_weight_bytes the graph's weights fit (graphWeightBytes <= warm_weight_bytes).
const target::Target& withWeightRegime(const target::Target& target, const ir::Graph& graph,
                                       std::optional<target::Target>& storage);

} // namespace strata::emulator
