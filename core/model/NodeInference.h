#pragma once
// onnx's type and shape inference for a single node, fed what is known about its inputs: their
// types and, for constants, their values. Folding uses it between onnx's whole-graph runs, so a
// shape that becomes known when a node folds reaches the next Shape op in the same pass.

#include "base/Expected.h"

#include <cstdint>
#include <onnx/onnx_pb.h>
#include <vector>

namespace strata::model {

// One type per node output (default domain, opset `opset`), as onnx's inference function for
// the op gives them; a type may still lack its shape or have symbolic dims. `inputTypes` and
// `inputData` have one entry per node input, nullptr where unknown (or omitted). Fails when
// onnx has no inference for the op or its inference throws.
Expected<std::vector<onnx::TypeProto>>
inferNodeTypes(const onnx::NodeProto& node, std::int64_t opset,
               const std::vector<const onnx::TypeProto*>& inputTypes,
               const std::vector<const onnx::TensorProto*>& inputData);

// The dims of a fully static tensor type; false otherwise.
bool staticDims(const onnx::TypeProto& type, std::vector<std::int64_t>& dims);

} // namespace strata::model
