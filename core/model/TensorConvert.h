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

// A small constant tensor for folding: integers (and bools) in `ints`, floating values in
// `reals`; exactly one of them holds size() values.
struct ConstTensor {
    ir::DType dtype = ir::DType::Int64;
    ir::Shape shape;
    std::vector<std::int64_t> ints;
    std::vector<double> reals;

    bool isInt() const { return ir::isIntegral(dtype); }
    std::int64_t size() const { return isInt() ? std::ssize(ints) : std::ssize(reals); }
    double at(std::int64_t i) const { return isInt() ? double(ints[i]) : reals[i]; }
};

// Decodes an inline tensor for constant folding. nullopt for what folding does not handle:
// strings, complex and 16-bit floats, external data.
std::optional<ConstTensor> decodeConstTensor(const onnx::TensorProto& tensor);

// Writes `value` into `out` (raw_data, little-endian) under `name`.
void encodeConstTensor(const ConstTensor& value, const std::string& name, onnx::TensorProto& out);

// The bytes of an inline tensor, referenced in place when its storage is contiguous in the
// proto (raw_data, float_data, int64_data, ...); `owner` must keep the proto alive. Narrow
// types stored widened in int32_data are converted into a buffer of their own.
ir::TensorData referenceTensorData(const onnx::TensorProto& tensor,
                                   std::shared_ptr<const void> owner);

} // namespace strata::model
