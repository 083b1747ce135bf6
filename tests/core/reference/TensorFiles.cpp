#include "TensorFiles.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <onnx/onnx_pb.h>
#include <span>

namespace strata::test {

namespace {

// Copies a repeated proto field of wider values into the tensor's element type.
template <class To, class Field> void narrow(const Field& field, reference::Tensor& t) {
    To* out = t.data<To>();
    for (int i = 0; i < field.size(); ++i)
        out[i] = static_cast<To>(field.Get(i));
}

std::vector<std::filesystem::path> numbered(const std::filesystem::path& dir,
                                            const std::string& stem) {
    std::vector<std::filesystem::path> out;
    for (int i = 0; std::filesystem::exists(dir / (stem + std::to_string(i) + ".pb")); ++i)
        out.push_back(dir / (stem + std::to_string(i) + ".pb"));
    return out;
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

Expected<model::ImportedModel> importWithInputsBound(const std::filesystem::path& dir,
                                                     const std::filesystem::path& dataSet,
                                                     model::ImportOptions options,
                                                     bool allButFirst) {
    onnx::ModelProto m;
    std::ifstream in(dir / "model.onnx", std::ios::binary);
    if (!m.ParseFromIstream(&in))
        return error("unreadable model");
    int bound = 0;
    for (const auto& pb : numbered(dataSet, "input_")) {
        onnx::TensorProto t;
        std::ifstream data(pb, std::ios::binary);
        if (!t.ParseFromIstream(&data) || t.name().empty())
            continue;
        const bool integral =
            t.data_type() == onnx::TensorProto::INT64 || t.data_type() == onnx::TensorProto::INT32;
        const auto& inputs = m.graph().input();
        const auto it =
            std::find_if(inputs.begin(), inputs.end(),
                         [&](const onnx::ValueInfoProto& v) { return v.name() == t.name(); });
        if (it == inputs.end() || (allButFirst ? it == inputs.begin() : !integral))
            continue;
        *m.mutable_graph()->add_initializer() = t;
        options.inputShapes.erase(t.name());
        ++bound;
    }
    if (!bound)
        return error("no inputs to bind");
    const std::string bytes = m.SerializeAsString();
    return model::importOnnxBytes(std::as_bytes(std::span(bytes.data(), bytes.size())),
                                  (dir / "model.onnx").string(), dir.string(), options);
}

} // namespace strata::test
