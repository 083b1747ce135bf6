#pragma once
// Resize's coordinate mapping as the reference evaluator computes it (onnx's reference
// implementation): each output coordinate of a dim maps to input neighbours with weights. The
// host runtime's fast Resize uses the same taps, so both agree on every mode.

#include "ir/Graph.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace strata::reference {

struct ResizeTap {
    std::int64_t index; // in the input dim, clamped to it
    double weight;
};

struct ResizeParams {
    std::string mode = "nearest";         // nearest, linear, cubic
    std::string transform = "half_pixel"; // coordinate_transformation_mode
    std::string nearestMode = "round_prefer_floor";
    double cubicA = -0.75;
    bool excludeOutside = false;
    double extrapolation = 0;
    std::vector<double> scales; // per dim
    // The resized length per dim as onnx's reference uses it in coordinate transforms: scale *
    // input length when scales are given (not rounded), else the output size.
    std::vector<double> lengths;
    std::vector<double> roi; // 2 * rank, for tf_crop_and_resize
};

// A Resize op's parameters from its attributes, its roi and scales inputs (empty when absent)
// and the static input and output shapes (sizes given: the scale is the size ratio).
ResizeParams resizeParams(const ir::Op& op, std::span<const double> roi,
                          std::span<const double> scales, const ir::Shape& input,
                          const ir::Shape& output);

// Neighbours of output coordinate x along dim d (input length `in`, tensor rank `rank`), those of
// weight 0 dropped; empty when it extrapolates (tf_crop_and_resize outside the roi).
std::vector<ResizeTap> resizeTaps(const ResizeParams& p, std::size_t d, std::int64_t x,
                                  std::int64_t in, std::size_t rank);

} // namespace strata::reference
