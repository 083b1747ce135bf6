#pragma once
// `run --check`'s comparison of a run's outputs with the reference evaluation, shared by `run`
// and `zoo`: numpy.allclose per output, atol relative to the output's largest reference value.

#include "ir/Graph.h"
#include "reference/Tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace strata::cli {

// float32 kernels summing in another order than the reference (blocked sgemm, im2col) differ by
// rounding only. atol scales with the output: random-weight exports can shrink activations to
// 1e-12, where a fixed atol would accept anything.
inline constexpr double kCheckAbsTolerance = 1e-4; // x the output's largest |reference value|
inline constexpr double kCheckRelTolerance = 1e-3;
// The seed of the deterministic inputs both commands check with.
inline constexpr std::uint64_t kCheckInputSeed = 7;

struct OutputCheck {
    double maxAbs = 0;                    // largest |actual - expected| over all outputs
    double largest = 0;                   // largest |reference value| over all outputs
    std::vector<std::string> differences; // one line per output that differs; empty: they match
    bool matches() const { return differences.empty(); }
};

OutputCheck checkOutputs(const ir::Graph& graph, const std::vector<reference::Tensor>& actual,
                         const std::vector<reference::Tensor>& expected);

} // namespace strata::cli
