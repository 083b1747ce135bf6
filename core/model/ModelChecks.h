#pragma once
// Structural checks that must pass before onnx's checker and shape inference run: they give
// clearer messages than onnx does (naming the node and the value), and they keep inputs that
// would make onnx misbehave (cycles, zero strides, huge dims) away from it.

#include "base/Diagnostic.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <string>
#include <vector>

namespace strata::model {

inline constexpr std::size_t kMaxNameBytes = 4096;
// Largest tensor Strata accepts: 2^40 elements (a 4 TiB float tensor).
inline constexpr std::int64_t kMaxTensorElements = 1LL << 40;

// Checks names, value definitions, domains and subgraphs of `model`, then reorders its nodes
// topologically (stable). Empty and duplicate node names are replaced by unique ones with a
// warning. Appends diagnostics to `out`; the model is usable when no error was appended.
void checkGraphStructure(onnx::ModelProto& model, const std::string& file,
                         std::vector<Diagnostic>& out);

// Checks dims, element type and inline data size of one tensor (initializer or Constant).
void checkTensor(const onnx::TensorProto& tensor, const Location& where,
                 std::vector<Diagnostic>& out);

// Checks attribute values that onnx's schemas accept but that are out of range (zero strides,
// negative pads, a group that does not divide the channels, ...).
void checkAttributeRanges(const onnx::GraphProto& graph, const std::string& file,
                          std::vector<Diagnostic>& out);

bool isValidUtf8(const std::string& text);

// The model's opset version of the default ONNX domain; 0 when it imports none.
std::int64_t defaultOpset(const onnx::ModelProto& model);

} // namespace strata::model
