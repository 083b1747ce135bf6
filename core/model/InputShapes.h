#pragma once
// Makes every graph input static: user-given shapes first, then dynamic dims get the default.

#include "base/Diagnostic.h"
#include "model/ImportOptions.h"

#include <onnx/onnx_pb.h>

#include <vector>

namespace strata::model {

// Rewrites the graph inputs' shapes of `model` per `options`, drops value_info hints and the
// declared shapes of graph outputs (shape inference recomputes both for the chosen input
// shapes). Appends a note per defaulted batch dim, a warning per other defaulted dim, and an
// error for an override naming no input or an input without any shape.
void applyInputShapes(onnx::ModelProto& model, const ImportOptions& options,
                      const std::string& file, std::vector<Diagnostic>& out);

} // namespace strata::model
