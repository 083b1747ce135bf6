#pragma once

#include "base/Expected.h"
#include "ir/Graph.h"

#include <cstdint>
#include <map>
#include <string>

namespace strata::model {

struct ImportOptions {
    // Static shapes for graph inputs, by input name; they replace the model's own shape.
    std::map<std::string, ir::Shape> inputShapes;
    // Value for dynamic dims (dim_param or missing) not covered by `inputShapes`. Batch is the
    // usual one; any other dynamic dim gets it too, with a warning naming it.
    std::int64_t defaultDynamicDim = 1;
    // Models whose default-domain opset is older than this are converted with onnx's version
    // converter first.
    std::int64_t minimumOpset = 7;
};

// Parses "name=1x3x224x224" into (name, shape). Fails on a missing '=', empty name, or a dim that
// is not a positive integer.
Expected<std::pair<std::string, ir::Shape>> parseInputShape(const std::string& text);

} // namespace strata::model
