#pragma once
// Test helper: ONNX TensorProto files (the backend suite's input_N.pb / output_N.pb) read into
// reference tensors. Lives in the tests because only core/model may include onnx in core.

#include "base/Expected.h"
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

} // namespace strata::test
