#pragma once
// Element types. Numbering follows ONNX's TensorProto.DataType so import is a cast.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace strata::ir {

enum class DType : std::uint8_t {
    Undefined = 0,
    Float32 = 1,
    UInt8 = 2,
    Int8 = 3,
    UInt16 = 4,
    Int16 = 5,
    Int32 = 6,
    Int64 = 7,
    String = 8,
    Bool = 9,
    Float16 = 10,
    Float64 = 11,
    UInt32 = 12,
    UInt64 = 13,
    Complex64 = 14,
    Complex128 = 15,
    BFloat16 = 16,
};

// Bytes per element; 0 for Undefined and String (no fixed size).
std::size_t dtypeSize(DType type);
// Short lower-case name as users know it: "float32", "int64", ...
std::string_view dtypeName(DType type);
bool isValidDType(int onnxType);
bool isIntegral(DType type); // includes Bool
bool isFloating(DType type);

} // namespace strata::ir
