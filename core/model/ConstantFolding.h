#pragma once
// Shape inference and constant folding. Any node whose inputs are all constants folds, whatever
// its op, when the reference evaluator has a kernel for it (ReferenceFolding); Shape and Size
// fold once their input's shape is static. A pass runs in topological order and re-infers the
// types of the nodes that stay from what it has folded so far, so a whole shape chain
// (Shape -> Gather -> Cast -> Range -> ... -> Expand) folds in one pass; onnx's whole-graph
// inference runs between passes until nothing more folds.

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
