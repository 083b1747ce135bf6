#pragma once
// Validation of windowed ops (convolutions and pooling) against their ONNX schema before
// onnx's shape inference and Strata's kernels see them: attribute values, their lengths against
// the input's rank, auto_pad's enum, group against the channels, the kernel against the weight.
// onnx's shape inference and the conv kernels assume these hold; a model that breaks them could
// crash either (SIGSEGV in inference for a rank-0 input, SIGFPE in a kernel for a huge group), so
// it is refused here with a diagnostic naming the node.

#include "base/Diagnostic.h"

#include <cstdint>
#include <onnx/onnx_pb.h>
#include <string>
#include <vector>

namespace strata::model {

// Bound of strides, dilations, kernel_shape, pads, output_padding and group: far above any real
// model, far below what overflows an output-size computation.
inline constexpr std::int64_t kMaxWindowAttribute = 1 << 20;

// Checks every windowed op of `graph` with the shapes known so far: graph inputs, initializers,
// and value_info (filled by shape inference; run again after it so intermediate values are
// checked too). Appends one error per broken rule to `out`.
void checkWindowedOps(const onnx::GraphProto& graph, const std::string& file,
                      std::vector<Diagnostic>& out);

} // namespace strata::model
