#include "model/TensorConvert.h"

#include <cstring>

namespace strata::model {

namespace {

template <class T> T loadLE(const char* p) {
    T v;
    std::memcpy(&v, p, sizeof(T)); // x86-64 and aarch64 are little-endian like ONNX raw_data
    return v;
}

template <class T, class Dst> void readRaw(const std::string& raw, std::int64_t n, Dst& dst) {
    dst.resize(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) dst[i] = loadLE<T>(raw.data() + i * sizeof(T));
}

} // namespace

std::optional<ConstTensor> decodeConstTensor(const onnx::TensorProto& tensor) {
    if (tensor.data_location() == onnx::TensorProto::EXTERNAL) return std::nullopt;
    ConstTensor out;
    out.dtype = static_cast<ir::DType>(tensor.data_type());
    out.shape.assign(tensor.dims().begin(), tensor.dims().end());
    const auto count = ir::elementCount(out.shape);
    if (!count) return std::nullopt;
    const std::int64_t n = *count;
    const std::string& raw = tensor.raw_data();
    const bool useRaw = tensor.has_raw_data();
    if (useRaw && raw.size() != static_cast<std::size_t>(n) * ir::dtypeSize(out.dtype))
        return std::nullopt;

    auto fromInt32Field = [&] {
        if (tensor.int32_data_size() != n) return false;
        out.ints.assign(tensor.int32_data().begin(), tensor.int32_data().end());
        return true;
    };
    switch (out.dtype) {
    case ir::DType::Float32:
        if (useRaw) readRaw<float>(raw, n, out.reals);
        else if (tensor.float_data_size() == n) out.reals.assign(tensor.float_data().begin(), tensor.float_data().end());
        else return std::nullopt;
        return out;
    case ir::DType::Float64:
        if (useRaw) readRaw<double>(raw, n, out.reals);
        else if (tensor.double_data_size() == n) out.reals.assign(tensor.double_data().begin(), tensor.double_data().end());
        else return std::nullopt;
        return out;
    case ir::DType::Int64:
        if (useRaw) readRaw<std::int64_t>(raw, n, out.ints);
        else if (tensor.int64_data_size() == n) out.ints.assign(tensor.int64_data().begin(), tensor.int64_data().end());
        else return std::nullopt;
        return out;
    case ir::DType::UInt64:
        if (useRaw) readRaw<std::uint64_t>(raw, n, out.ints);
        else if (tensor.uint64_data_size() == n) out.ints.assign(tensor.uint64_data().begin(), tensor.uint64_data().end());
        else return std::nullopt;
        return out;
    case ir::DType::UInt32:
        if (useRaw) readRaw<std::uint32_t>(raw, n, out.ints);
        else if (tensor.uint64_data_size() == n) out.ints.assign(tensor.uint64_data().begin(), tensor.uint64_data().end());
        else return std::nullopt;
        return out;
    case ir::DType::Int32:
        if (useRaw) readRaw<std::int32_t>(raw, n, out.ints);
        else if (!fromInt32Field()) return std::nullopt;
        return out;
    case ir::DType::Int16:
        if (useRaw) readRaw<std::int16_t>(raw, n, out.ints);
        else if (!fromInt32Field()) return std::nullopt;
        return out;
    case ir::DType::UInt16:
        if (useRaw) readRaw<std::uint16_t>(raw, n, out.ints);
        else if (!fromInt32Field()) return std::nullopt;
        return out;
    case ir::DType::Int8:
        if (useRaw) readRaw<std::int8_t>(raw, n, out.ints);
        else if (!fromInt32Field()) return std::nullopt;
        return out;
    case ir::DType::UInt8:
    case ir::DType::Bool:
        if (useRaw) readRaw<std::uint8_t>(raw, n, out.ints);
        else if (!fromInt32Field()) return std::nullopt;
        if (out.dtype == ir::DType::Bool)
            for (auto& v : out.ints) v = v != 0;
        return out;
    default: return std::nullopt;
    }
}

namespace {

template <class T> void appendLE(std::string& raw, T v) {
    char buf[sizeof(T)];
    std::memcpy(buf, &v, sizeof(T));
    raw.append(buf, sizeof(T));
}

} // namespace

void encodeConstTensor(const ConstTensor& value, const std::string& name, onnx::TensorProto& out) {
    out.Clear();
    out.set_name(name);
    out.set_data_type(static_cast<int>(value.dtype));
    for (std::int64_t d : value.shape) out.add_dims(d);
    std::string raw;
    raw.reserve(static_cast<std::size_t>(value.size()) * ir::dtypeSize(value.dtype));
    for (std::int64_t i = 0; i < value.size(); ++i) {
        switch (value.dtype) {
        case ir::DType::Float32: appendLE<float>(raw, static_cast<float>(value.reals[i])); break;
        case ir::DType::Float64: appendLE<double>(raw, value.reals[i]); break;
        case ir::DType::Int64: appendLE<std::int64_t>(raw, value.ints[i]); break;
        case ir::DType::UInt64: appendLE<std::uint64_t>(raw, static_cast<std::uint64_t>(value.ints[i])); break;
        case ir::DType::Int32: appendLE<std::int32_t>(raw, static_cast<std::int32_t>(value.ints[i])); break;
        case ir::DType::UInt32: appendLE<std::uint32_t>(raw, static_cast<std::uint32_t>(value.ints[i])); break;
        case ir::DType::Int16: appendLE<std::int16_t>(raw, static_cast<std::int16_t>(value.ints[i])); break;
        case ir::DType::UInt16: appendLE<std::uint16_t>(raw, static_cast<std::uint16_t>(value.ints[i])); break;
        case ir::DType::Int8: appendLE<std::int8_t>(raw, static_cast<std::int8_t>(value.ints[i])); break;
        case ir::DType::UInt8: appendLE<std::uint8_t>(raw, static_cast<std::uint8_t>(value.ints[i])); break;
        case ir::DType::Bool: appendLE<std::uint8_t>(raw, value.ints[i] != 0); break;
        default: break; // decodeConstTensor never yields other types
        }
    }
    out.set_raw_data(std::move(raw));
}

namespace {

template <class Field>
ir::TensorData referenceField(const Field& field, std::shared_ptr<const void> owner) {
    ir::TensorData data;
    data.owner = std::move(owner);
    data.data = reinterpret_cast<const std::byte*>(field.data());
    data.size = static_cast<std::size_t>(field.size()) * sizeof(field.Get(0));
    return data;
}

} // namespace

ir::TensorData referenceTensorData(const onnx::TensorProto& tensor,
                                   std::shared_ptr<const void> owner) {
    if (tensor.has_raw_data()) {
        ir::TensorData data;
        data.owner = std::move(owner);
        data.data = reinterpret_cast<const std::byte*>(tensor.raw_data().data());
        data.size = tensor.raw_data().size();
        return data;
    }
    const auto type = static_cast<ir::DType>(tensor.data_type());
    switch (type) {
    case ir::DType::Float32:
    case ir::DType::Complex64:
        return tensor.float_data_size() ? referenceField(tensor.float_data(), std::move(owner)) : ir::TensorData{};
    case ir::DType::Float64:
    case ir::DType::Complex128:
        return tensor.double_data_size() ? referenceField(tensor.double_data(), std::move(owner)) : ir::TensorData{};
    case ir::DType::Int64:
        return tensor.int64_data_size() ? referenceField(tensor.int64_data(), std::move(owner)) : ir::TensorData{};
    case ir::DType::UInt64:
        return tensor.uint64_data_size() ? referenceField(tensor.uint64_data(), std::move(owner)) : ir::TensorData{};
    case ir::DType::Int32:
        return tensor.int32_data_size() ? referenceField(tensor.int32_data(), std::move(owner)) : ir::TensorData{};
    case ir::DType::String:
    case ir::DType::Undefined: return {};
    default: break;
    }
    // Narrow types (int8, uint8, int16, uint16, bool, float16, bfloat16) and uint32 are stored
    // one per int32/uint64 slot: narrow them into a buffer of their own.
    const std::size_t size = ir::dtypeSize(type);
    auto buffer = std::make_shared<std::vector<std::byte>>();
    auto put = [&](std::uint64_t v) {
        for (std::size_t b = 0; b < size; ++b) buffer->push_back(std::byte((v >> (8 * b)) & 0xff));
    };
    if (type == ir::DType::UInt32)
        for (auto v : tensor.uint64_data()) put(v);
    else
        for (auto v : tensor.int32_data()) put(static_cast<std::uint32_t>(v));
    ir::TensorData data;
    data.data = buffer->data();
    data.size = buffer->size();
    data.owner = std::move(buffer);
    return data;
}

} // namespace strata::model
