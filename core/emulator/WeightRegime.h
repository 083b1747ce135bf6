#pragma once
// Which figures a model's weight reads use (docs/EMULATOR.md, "Kinds of read"): a model whose
// weights fit the last-level cache finds them there from its last run (warm), one whose weights
// do not reads them out of DRAM every run (cold). On the host, weight reads under 4 KiB take
// 40-250 ns in the first kind and 250-600 ns in the second; one figure cannot price both.

#include "ir/Graph.h"
#include "target/Target.h"

#include <cstdint>
#include <optional>

namespace strata::emulator {

// The bytes of the graph's constants that some op reads: what a run streams from memory.
std::uint64_t graphWeightBytes(const ir::Graph& graph);

// `target` itself, or (in `storage`) a copy of it whose paths with warm_weight_reads that the
// graph's weights fit (graphWeightBytes <= warm_weight_bytes) read weights at those figures.
const target::Target& withWeightRegime(const target::Target& target, const ir::Graph& graph,
                                       std::optional<target::Target>& storage);

} // namespace strata::emulator
