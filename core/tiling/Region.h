#pragma once
// Regions of tensors and bounds inference: which part of each input an op reads to produce a
// given part of its outputs (Halide's bounds inference, for ONNX ops). Depth-first fusion and
// the SRAM footprint of a fusion block are built on this.

#include "ir/Graph.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace strata::tiling {

// Half-open [begin, end) along one dimension.
struct Interval {
    std::int64_t begin = 0;
    std::int64_t end = 0;
    std::int64_t size() const { return end > begin ? end - begin : 0; }
    bool operator==(const Interval&) const = default;
};

// One interval per dimension; rank 0 (scalar) is the empty vector and holds one element.
using Region = std::vector<Interval>;

Region fullRegion(const ir::Shape& shape);
std::int64_t regionElements(const Region& region); // product of sizes; 1 for rank 0
std::uint64_t regionBytes(const Region& region, ir::DType dtype);
bool regionEmpty(const Region& region);             // some dimension has size 0
// Smallest region containing both; both must have the same rank.
Region regionUnion(const Region& a, const Region& b);
bool regionContains(const Region& outer, const Region& inner);
std::string regionToString(const Region& region);  // "[0,4)x[0,16)x[3,35)x[0,64)"

// The region of every input of `op` needed to compute the given regions of its outputs.
// `outputRegions` has one entry per op output; nullopt means that output is not needed.
// Returns one entry per op input: nullopt for an omitted optional input or an input not read
// for these outputs or carried by the compiled instruction (FoldedOperands.h), otherwise a
// region clamped to the input's shape. Ops without a specific rule conservatively need their
// whole inputs.
std::vector<std::optional<Region>> inputRegions(const ir::Graph& graph, const ir::Op& op,
                                                const std::vector<std::optional<Region>>& outputRegions);

} // namespace strata::tiling
