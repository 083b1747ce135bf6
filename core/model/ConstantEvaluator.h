#pragma once
// Evaluates ONNX ops on small constant tensors: what shape computations exported from PyTorch
// and TensorFlow are made of (Gather, Unsqueeze, Concat, Slice, arithmetic, ...).

#include "model/TensorConvert.h"

#include <onnx/onnx_pb.h>

#include <optional>
#include <vector>

namespace strata::model {

// Folding never creates a tensor larger than this: it removes shape arithmetic, it does not
// precompute activations.
inline constexpr std::int64_t kMaxFoldedElements = 1 << 16;

// Evaluates `node` (default domain, opset `opset`) on constant `inputs` (nullptr for an omitted
// optional input). Returns one tensor per node output, or nullopt when the op or this use of it
// is not handled (unknown op, unsupported dtype, result too large, division by zero); the node
// then stays in the graph.
std::optional<std::vector<ConstTensor>> evaluateConstantNode(
    const onnx::NodeProto& node, std::int64_t opset, const std::vector<const ConstTensor*>& inputs);

} // namespace strata::model
