#pragma once
// Shape inference and constant folding, alternated until nothing more folds: folding a shape
// computation turns a Reshape's shape input into a constant, which lets onnx's shape inference
// resolve the Reshape's output, which may make the next Shape op foldable.

#include "base/Expected.h"

#include <onnx/onnx_pb.h>

#include <string>

namespace strata::model {

struct FoldReport {
    int foldedNodes = 0; // nodes replaced by constants (Constant nodes included)
    int rounds = 0;      // shape inference runs
};

// Precondition: `model` passed checkGraphStructure (topologically sorted, SSA) and onnx's
// checker, and its graph inputs have static shapes. On success every foldable node is gone and
// value_info holds onnx's inferred types. A shape inference error is returned as a diagnostic.
Expected<FoldReport> inferShapesAndFold(onnx::ModelProto& model, const std::string& file);

} // namespace strata::model
