#pragma once
// An Einsum equation resolved against its operands' shapes. One parser for the three places that
// read equations the same way: the reference kernel (what each output element sums), the bounds
// rule (which input elements a region of the output reads) and the host runtime's sgemm path.

#include "ir/Graph.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace strata::tiling {

// Every distinct label (a letter, or one dim covered by "...") gets an id: the ellipsis dims are
// ids 0 .. ellipsisRank-1, right-aligned across operands as numpy broadcasts them; letters follow
// in order of first use. An operand dim of size 1 whose label is larger broadcasts.
struct EinsumLabels {
    std::vector<std::vector<int>> inputs; // per operand, one label id per dim
    std::vector<int> output;              // one label id per output dim, none repeated
    std::vector<std::int64_t> sizes;      // per label id
    std::size_t ellipsisRank = 0;

    bool inOutput(int label) const;
};

// Parses `equation` (spaces ignored; "->" optional, without it the output is the ellipsis dims,
// then the letters used once, alphabetically) against the operand shapes. nullopt, with `why`,
// when the equation is malformed or does not fit the shapes.
std::optional<EinsumLabels> parseEinsum(std::string equation, const std::vector<ir::Shape>& shapes,
                                        std::string& why);

} // namespace strata::tiling
