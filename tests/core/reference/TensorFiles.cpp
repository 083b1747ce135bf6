#include "TensorFiles.h"

#include <cstring>
#include <fstream>
#include <onnx/onnx_pb.h>

namespace strata::test {

namespace {

// Copies a repeated proto field of wider values into the tensor's element type.
template <class To, class Field> void narrow(const Field& field, reference::Tensor& t) {
    To* out = t.data<To>();
    for (int i = 0; i < field.size(); ++i)
        out[i] = static_cast<To>(field.Get(i));
}

} // namespace

Expected<NamedTensor> readTensorFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return error("cannot open", {.file = path.string()});
    onnx::TensorProto proto;
    if (!proto.ParseFromIstream(&in))
        return error("not a TensorProto", {.file = path.string()});
    const auto dtype = static_cast<ir::DType>(proto.data_type());
    if (!reference::isSupportedDType(dtype))
        return error("dtype " + std::string(ir::dtypeName(dtype)) + " is not supported",
                     {.file = path.string()});
    if (proto.data_location() == onnx::TensorProto::EXTERNAL)
        return error("external data is not supported", {.file = path.string()});
    const ir::Shape shape(proto.dims().begin(), proto.dims().end());
    const auto elements = ir::elementCount(shape);
    // A sequence or optional file parses as a TensorProto with nonsense dims.
    if (!elements || *elements > (std::int64_t(1) << 28))
        return error("dims " + ir::shapeToString(shape) + " are not a tensor's",
                     {.file = path.string()});
    NamedTensor out{proto.name(), reference::zeros(dtype, shape)};
    reference::Tensor& t = out.tensor;
    const auto n = std::size_t(t.elements());
    if (proto.has_raw_data()) {
        if (proto.raw_data().size() != t.bytes.size())
            return error("raw_data has " + std::to_string(proto.raw_data().size()) + " bytes, " +
                             std::to_string(t.bytes.size()) + " expected",
                         {.file = path.string()});
        if (!t.bytes.empty())
            std::memcpy(t.bytes.data(), proto.raw_data().data(), t.bytes.size());
        return out;
    }
    using ir::DType;
    std::size_t stored = 0;
    switch (dtype) {
    case DType::Float32:
        stored = std::size_t(proto.float_data_size());
        break;
    case DType::Float64:
        stored = std::size_t(proto.double_data_size());
        break;
    case DType::Int64:
        stored = std::size_t(proto.int64_data_size());
        break;
    case DType::UInt32:
    case DType::UInt64:
        stored = std::size_t(proto.uint64_data_size());
        break;
    default:
        stored = std::size_t(proto.int32_data_size());
        break;
    }
    if (stored != n)
        return error("holds " + std::to_string(stored) + " values, " + std::to_string(n) +
                         " expected",
                     {.file = path.string()});
    switch (dtype) {
    case DType::Float32:
        narrow<float>(proto.float_data(), t);
        break;
    case DType::Float64:
        narrow<double>(proto.double_data(), t);
        break;
    case DType::Int64:
        narrow<std::int64_t>(proto.int64_data(), t);
        break;
    case DType::UInt32:
        narrow<std::uint32_t>(proto.uint64_data(), t);
        break;
    case DType::UInt64:
        narrow<std::uint64_t>(proto.uint64_data(), t);
        break;
    case DType::Int32:
        narrow<std::int32_t>(proto.int32_data(), t);
        break;
    case DType::Int16:
        narrow<std::int16_t>(proto.int32_data(), t);
        break;
    case DType::UInt16:
    case DType::Float16:
    case DType::BFloat16:
        narrow<std::uint16_t>(proto.int32_data(), t);
        break;
    case DType::Int8:
        narrow<std::int8_t>(proto.int32_data(), t);
        break;
    case DType::UInt8:
    case DType::Bool:
        narrow<std::uint8_t>(proto.int32_data(), t);
        break;
    default:
        return error("unexpected dtype", {.file = path.string()});
    }
    return out;
}

} // namespace strata::test
