#include "model/TensorConvert.h"

#include <cstring>

namespace strata::model {

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
