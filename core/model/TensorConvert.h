#pragma once
// Conversions between onnx::TensorProto and Strata's tensor representations.

#include "ir/DType.h"
#include "ir/Graph.h"
#include "ir/TensorData.h"

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace strata::model {

// The bytes of an inline tensor, referenced in place when its storage is contiguous in the
// proto (raw_data, float_data, int64_data, ...); `owner` must keep the proto alive. Narrow
// types stored widened in int32_data are converted into a buffer of their own.
ir::TensorData referenceTensorData(const onnx::TensorProto& tensor,
                                   std::shared_ptr<const void> owner);

} // namespace strata::model
