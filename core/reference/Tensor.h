#pragma once
// A host tensor for the reference evaluator: dtype, static shape and the elements, densely
// packed in row-major order as little-endian bytes (bool is one byte, 0 or 1; float16 and
// bfloat16 are their 16-bit patterns).

#include "base/Expected.h"
#include "ir/Graph.h"

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace strata::reference {

struct Tensor {
    ir::DType dtype = ir::DType::Float32;
    ir::Shape shape;
    // elements() * dtypeSize(dtype) bytes. std::allocator aligns it for every element type.
    std::vector<std::byte> bytes;

    std::int64_t elements() const; // product of dims; 1 for a scalar

    // The elements as T. T's size must match the dtype's (float for Float32, std::uint16_t for
    // Float16, std::uint8_t for Bool, ...).
    template <class T> T* data() {
        assert(sizeof(T) == ir::dtypeSize(dtype));
        return reinterpret_cast<T*>(bytes.data());
    }
    template <class T> const T* data() const {
        assert(sizeof(T) == ir::dtypeSize(dtype));
        return reinterpret_cast<const T*>(bytes.data());
    }
    float* floats() {
        assert(dtype == ir::DType::Float32);
        return data<float>();
    }
    const float* floats() const {
        assert(dtype == ir::DType::Float32);
        return data<float>();
    }

    // Element `i` converted to double (bool as 0/1, float16/bfloat16 widened).
    double at(std::int64_t i) const;
    // Every element as int64 (integral and bool dtypes; floating ones truncated).
    std::vector<std::int64_t> toInt64s() const;
    std::vector<double> toDoubles() const;
};

// A tensor of `dtype` and `shape` with every element zero. The dtype must have a fixed size.
Tensor zeros(ir::DType dtype, ir::Shape shape);
Tensor fromFloats(ir::Shape shape, std::span<const float> values);
Tensor fromDoubles(ir::Shape shape, std::span<const double> values);
Tensor fromInt64s(ir::Shape shape, std::span<const std::int64_t> values);
// Converts each value to `dtype` (as Cast would, from double).
Tensor fromValues(ir::DType dtype, ir::Shape shape, std::span<const double> values);

// A zero tensor shaped and typed like `value`.
Tensor zerosLike(const ir::Value& value);
// The bytes of a constant value as a tensor. Fails when the value has no data (huge constants
// may be imported without it) or its size does not match its shape.
Expected<Tensor> constantTensor(const ir::Value& value);

// The dtypes the evaluator computes with (complex and string are not among them).
bool isSupportedDType(ir::DType dtype);

// IEEE half and bfloat16 conversions (round to nearest even; NaN stays NaN).
float halfToFloat(std::uint16_t bits);
std::uint16_t floatToHalf(float value);
float bfloat16ToFloat(std::uint16_t bits);
std::uint16_t floatToBfloat16(float value);

} // namespace strata::reference
