#pragma once
// Test helper: ONNX TensorProto files (the backend suite's input_N.pb / output_N.pb) read into
// reference tensors. Lives in the tests because only core/model may include onnx in core.

#include "base/Expected.h"
#include "model/OnnxImporter.h"
#include "reference/Tensor.h"

#include <filesystem>
#include <string>

namespace strata::test {

struct NamedTensor {
    std::string name; // the TensorProto's name (may be empty)
    reference::Tensor tensor;
};

// Reads a serialized TensorProto. Fails on unreadable files, unsupported dtypes (string,
// complex), external data and sizes that do not match the dims.
Expected<NamedTensor> readTensorFile(const std::filesystem::path& path);

// The backend test in `dir` (its model.onnx) imported with graph inputs replaced by initializers
// holding the data set's values: every int32/int64 input, or (`allButFirst`) every input after
// the first. Shapes that depend on inputs (Reshape's shape, Pad's pads, Resize's scales) are
// constants in exported models; this makes the suite's tests of them static.
Expected<model::ImportedModel> importWithInputsBound(const std::filesystem::path& dir,
                                                     const std::filesystem::path& dataSet,
                                                     model::ImportOptions options,
                                                     bool allButFirst);

} // namespace strata::test
