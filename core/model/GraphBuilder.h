#pragma once
// onnx::ModelProto (checked, shape-inferred, folded) -> Strata's graph IR.

#include "base/Expected.h"
#include "ir/Graph.h"
#include "ir/TensorData.h"

#include <onnx/onnx_pb.h>

#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace strata::model {

struct BuildInputs {
    std::shared_ptr<const onnx::ModelProto> model; // kept alive by the IR's tensor data
    std::string file;
    std::set<std::string> initializerNames;        // the model's own initializers, before folding
    std::uint64_t parameterCount = 0;
    std::unordered_map<std::string, ir::TensorData> externalData; // loaded external tensors
};

// Builds the IR: removes Identity (and single-output Dropout) by aliasing, drops ops whose
// results reach no graph output, gives every value its static shape, references constant data
// (external data from `inputs.externalData`), classifies ops and counts their cost. Fails when a value's
// shape or type is not fully known. Appends notes to `notes`.
Expected<std::shared_ptr<ir::Graph>> buildGraph(const BuildInputs& inputs,
                                                std::vector<Diagnostic>& notes);

} // namespace strata::model
