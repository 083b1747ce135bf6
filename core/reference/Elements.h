#pragma once
// Internal to the reference evaluator: C++ element types per dtype, the type a kernel computes
// in, conversions between them (Cast's rules), and visitors that turn a runtime dtype into a
// template argument.

#include "reference/Tensor.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace strata::reference {

// 16-bit floats are stored as their bit patterns and computed in float.
struct Half {
    std::uint16_t bits;
};
struct BFloat16 {
    std::uint16_t bits;
};

template <class T> struct ComputeTypeOf { using type = T; };
template <> struct ComputeTypeOf<Half> { using type = float; };
template <> struct ComputeTypeOf<BFloat16> { using type = float; };
template <class T> using Compute = typename ComputeTypeOf<T>::type;

template <class T>
constexpr bool kIsFloating =
    std::is_floating_point_v<T> || std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

template <class T> Compute<T> load(T v) {
    if constexpr (std::is_same_v<T, Half>)
        return halfToFloat(v.bits);
    else if constexpr (std::is_same_v<T, BFloat16>)
        return bfloat16ToFloat(v.bits);
    else
        return v;
}
template <class T> T store(Compute<T> v) {
    if constexpr (std::is_same_v<T, Half>)
        return Half{floatToHalf(v)};
    else if constexpr (std::is_same_v<T, BFloat16>)
        return BFloat16{floatToBfloat16(v)};
    else
        return v;
}

// Floating to integral as numpy's astype does on x86 for in-range values (truncation); out of
// range and NaN saturate instead of being undefined behaviour.
template <class To> To saturatingFromDouble(double v) {
    if (std::isnan(v))
        return To(0);
    constexpr double lo = double(std::numeric_limits<To>::lowest());
    constexpr double hi = double(std::numeric_limits<To>::max());
    if (v <= lo)
        return std::numeric_limits<To>::lowest();
    if (v >= hi)
        return std::numeric_limits<To>::max();
    return To(v);
}

// One element of type From as type To, with ONNX Cast's semantics.
template <class To, class From> To convertElement(From from) {
    const auto v = load(from);
    if constexpr (std::is_same_v<To, bool>) {
        return v != 0;
    } else if constexpr (kIsFloating<To>) {
        return store<To>(Compute<To>(v));
    } else if constexpr (kIsFloating<From>) {
        return saturatingFromDouble<To>(double(v));
    } else {
        return To(v); // integral to integral: wraps like numpy's astype
    }
}

template <class T> struct TypeTag { using type = T; };

// Calls f(TypeTag<T>{}) for the C++ type of a floating dtype; false for other dtypes.
template <class F> bool visitFloating(ir::DType dtype, F&& f) {
    switch (dtype) {
    case ir::DType::Float32:
        f(TypeTag<float>{});
        return true;
    case ir::DType::Float64:
        f(TypeTag<double>{});
        return true;
    case ir::DType::Float16:
        f(TypeTag<Half>{});
        return true;
    case ir::DType::BFloat16:
        f(TypeTag<BFloat16>{});
        return true;
    default:
        return false;
    }
}

// Integral dtypes, without bool.
template <class F> bool visitIntegral(ir::DType dtype, F&& f) {
    switch (dtype) {
    case ir::DType::Int8:
        f(TypeTag<std::int8_t>{});
        return true;
    case ir::DType::UInt8:
        f(TypeTag<std::uint8_t>{});
        return true;
    case ir::DType::Int16:
        f(TypeTag<std::int16_t>{});
        return true;
    case ir::DType::UInt16:
        f(TypeTag<std::uint16_t>{});
        return true;
    case ir::DType::Int32:
        f(TypeTag<std::int32_t>{});
        return true;
    case ir::DType::UInt32:
        f(TypeTag<std::uint32_t>{});
        return true;
    case ir::DType::Int64:
        f(TypeTag<std::int64_t>{});
        return true;
    case ir::DType::UInt64:
        f(TypeTag<std::uint64_t>{});
        return true;
    default:
        return false;
    }
}

// Floating and integral dtypes, without bool.
template <class F> bool visitNumeric(ir::DType dtype, F&& f) {
    return visitFloating(dtype, f) || visitIntegral(dtype, f);
}

// Every dtype the evaluator holds.
template <class F> bool visitAny(ir::DType dtype, F&& f) {
    if (dtype == ir::DType::Bool) {
        f(TypeTag<bool>{});
        return true;
    }
    return visitNumeric(dtype, f);
}

// Unsigned integer types of 1, 2, 4 and 8 bytes, for moving elements without looking at them.
template <class F> void visitBySize(std::size_t size, F&& f) {
    switch (size) {
    case 1:
        f(TypeTag<std::uint8_t>{});
        break;
    case 2:
        f(TypeTag<std::uint16_t>{});
        break;
    case 4:
        f(TypeTag<std::uint32_t>{});
        break;
    default:
        f(TypeTag<std::uint64_t>{});
        break;
    }
}

} // namespace strata::reference
