#pragma once
// Evaluates one ONNX node whose inputs are all constants with the reference evaluator's kernels
// (core/reference), the kernels the runtime and generated code are checked against, so folding
// handles every op they handle and computes what they compute. onnx's own inference function
// for the op (given the input values) provides the outputs' dtypes and shapes.

#include "base/Expected.h"

#include <cstdint>
#include <onnx/onnx_pb.h>
#include <vector>

namespace strata::model {

struct FoldLimits {
    // Folding removes shape arithmetic and precomputes small constant tensors (masks, position
    // indices); it does not materialise weight-sized results or read huge inputs.
    std::int64_t maxOutputElements = 1 << 20;
    std::int64_t maxInputElements = 1 << 24;
};

// Evaluates `node` (default domain, opset `opset`) on `inputs`, one per node input (nullptr for
// an omitted optional input), each an inline (not external) tensor. Returns one tensor per node
// output, named after it, or a diagnostic saying why the node cannot be folded: no kernel, an
// output shape onnx cannot infer, a result over the limits, or a kernel error (e.g. an index out
// of range).
Expected<std::vector<onnx::TensorProto>>
evaluateWithReference(const onnx::NodeProto& node, std::int64_t opset,
                      const std::vector<const onnx::TensorProto*>& inputs,
                      const FoldLimits& limits = {});

} // namespace strata::model
