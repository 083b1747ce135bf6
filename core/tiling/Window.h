#pragma once
// Where a Conv or pooling window sits along each spatial dim: kernel, strides, dilations and the
// padding before and after, with auto_pad's SAME_* pads derived from the static output size.
// Bounds inference and the code emitters read windows the same way through this.

#include "ir/Graph.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace strata::tiling {

struct SlidingWindow {
    std::vector<std::int64_t> kernel, strides, dilations, padBegin, padEnd;
};

// The window of `op` reading `in` and producing `out` (both N, C, spatial...), for the given
// kernel extents. nullopt when the attributes do not fit the ranks or are not positive.
std::optional<SlidingWindow> slidingWindow(const ir::Op& op, std::vector<std::int64_t> kernel,
                                           const ir::Shape& in, const ir::Shape& out);

// Conv's kernel extents: `kernel_shape`, or the weight's spatial dims.
std::vector<std::int64_t> convKernel(const ir::Op& op, const ir::Shape& weight);

} // namespace strata::tiling
