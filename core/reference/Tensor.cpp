#include "reference/Tensor.h"

#include "reference/Elements.h"

#include <bit>
#include <cstring>

namespace strata::reference {

std::int64_t Tensor::elements() const {
    return ir::elementCount(shape).value_or(0);
}

double Tensor::at(std::int64_t i) const {
    double out = 0;
    const bool known =
        visitAny(dtype, [&]<class T>(TypeTag<T>) { out = double(load(data<T>()[i])); });
    assert(known);
    (void)known;
    return out;
}

std::vector<std::int64_t> Tensor::toInt64s() const {
    std::vector<std::int64_t> out(static_cast<std::size_t>(elements()));
    visitAny(dtype, [&]<class T>(TypeTag<T>) {
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = convertElement<std::int64_t>(data<T>()[i]);
    });
    return out;
}

std::vector<double> Tensor::toDoubles() const {
    std::vector<double> out(static_cast<std::size_t>(elements()));
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = at(std::int64_t(i));
    return out;
}

Tensor zeros(ir::DType dtype, ir::Shape shape) {
    Tensor t;
    t.dtype = dtype;
    t.shape = std::move(shape);
    t.bytes.assign(std::size_t(t.elements()) * ir::dtypeSize(dtype), std::byte{0});
    return t;
}

Tensor fromFloats(ir::Shape shape, std::span<const float> values) {
    Tensor t = zeros(ir::DType::Float32, std::move(shape));
    assert(std::int64_t(values.size()) == t.elements());
    if (!t.bytes.empty())
        std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
    return t;
}

Tensor fromDoubles(ir::Shape shape, std::span<const double> values) {
    Tensor t = zeros(ir::DType::Float64, std::move(shape));
    assert(std::int64_t(values.size()) == t.elements());
    if (!t.bytes.empty())
        std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
    return t;
}

Tensor fromInt64s(ir::Shape shape, std::span<const std::int64_t> values) {
    Tensor t = zeros(ir::DType::Int64, std::move(shape));
    assert(std::int64_t(values.size()) == t.elements());
    if (!t.bytes.empty())
        std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
    return t;
}

Tensor fromValues(ir::DType dtype, ir::Shape shape, std::span<const double> values) {
    Tensor t = zeros(dtype, std::move(shape));
    assert(std::int64_t(values.size()) == t.elements());
    visitAny(dtype, [&]<class T>(TypeTag<T>) {
        for (std::size_t i = 0; i < values.size(); ++i)
            t.data<T>()[i] = convertElement<T>(values[i]);
    });
    return t;
}

Tensor zerosLike(const ir::Value& value) {
    return zeros(value.dtype, value.shape);
}

Expected<Tensor> constantTensor(const ir::Value& value) {
    if (!isSupportedDType(value.dtype))
        return error("constant of dtype " + std::string(ir::dtypeName(value.dtype)) +
                         " is not supported by the reference evaluator",
                     {.value = value.name});
    Tensor t = zerosLike(value);
    if (value.data.size != t.bytes.size())
        return error("constant has " + std::to_string(value.data.size) + " bytes of data, " +
                         std::to_string(t.bytes.size()) + " expected for " +
                         std::string(ir::dtypeName(value.dtype)) + " " +
                         ir::shapeToString(value.shape) +
                         (value.data.empty() ? " (its data was not loaded)" : ""),
                     {.value = value.name});
    if (!t.bytes.empty())
        std::memcpy(t.bytes.data(), value.data.data, t.bytes.size());
    return t;
}

bool isSupportedDType(ir::DType dtype) {
    return visitAny(dtype, []<class T>(TypeTag<T>) {});
}

float halfToFloat(std::uint16_t h) {
    const std::uint32_t sign = std::uint32_t(h & 0x8000) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1f;
    std::uint32_t mantissa = h & 0x3ff;
    std::uint32_t bits;
    if (exponent == 0x1f) {
        bits = sign | 0x7f800000u | (mantissa << 13); // inf, NaN
    } else if (exponent != 0) {
        bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
        bits = sign; // +-0
    } else {
        // Subnormal half: normalise into a float.
        int e = -1;
        do {
            ++e;
            mantissa <<= 1;
        } while (!(mantissa & 0x400));
        bits = sign | std::uint32_t(112 - e) << 23 | ((mantissa & 0x3ff) << 13);
    }
    return std::bit_cast<float>(bits);
}

std::uint16_t floatToHalf(float value) {
    const std::uint32_t f = std::bit_cast<std::uint32_t>(value);
    const std::uint16_t sign = std::uint16_t((f >> 16) & 0x8000);
    const std::uint32_t absBits = f & 0x7fffffff;
    if (absBits >= 0x7f800000) // inf or NaN
        return std::uint16_t(sign | 0x7c00 | (absBits > 0x7f800000 ? 0x200 : 0));
    if (absBits >= 0x477ff000)
        return std::uint16_t(sign | 0x7c00); // rounds to inf
    if (absBits < 0x38800000) {
        // Result is subnormal or zero: add the implicit bit and shift with round-to-even.
        if (absBits < 0x33000000)
            return sign; // below half the smallest subnormal
        const std::uint32_t exponent = absBits >> 23;
        const std::uint32_t mantissa = (absBits & 0x7fffff) | 0x800000;
        const std::uint32_t shift = 126 - exponent; // 14..24
        std::uint32_t half = mantissa >> shift;
        const std::uint32_t rest = mantissa & ((1u << shift) - 1);
        const std::uint32_t halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (half & 1)))
            ++half;
        return std::uint16_t(sign | half);
    }
    // Normal: rebias the exponent, round the mantissa to 10 bits (to even).
    std::uint32_t bits = absBits - 0x38000000; // exponent 127 -> 15
    const std::uint32_t rest = bits & 0x1fff;
    bits >>= 13;
    if (rest > 0x1000 || (rest == 0x1000 && (bits & 1)))
        ++bits; // may carry into inf: correct
    return std::uint16_t(sign | bits);
}

float bfloat16ToFloat(std::uint16_t bits) {
    return std::bit_cast<float>(std::uint32_t(bits) << 16);
}

std::uint16_t floatToBfloat16(float value) {
    std::uint32_t f = std::bit_cast<std::uint32_t>(value);
    if ((f & 0x7fffffff) > 0x7f800000)
        return std::uint16_t((f >> 16) | 0x40); // quiet NaN
    f += 0x7fff + ((f >> 16) & 1);
    return std::uint16_t(f >> 16);
}

} // namespace strata::reference
