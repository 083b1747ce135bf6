#include "model/ProtoReader.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <climits>
#include <cstring>

namespace strata::model {

namespace {

struct Signature {
    const char* magic;
    std::size_t length;
    const char* what;
};

// Formats people mistake for ONNX files, or rename by accident.
constexpr Signature kSignatures[] = {
    {"\x89PNG\r\n\x1a\n", 8, "a PNG image"},
    {"\xff\xd8\xff", 3, "a JPEG image"},
    {"PK\x03\x04", 4, "a ZIP archive (a PyTorch .pt checkpoint is one)"},
    {"\x1f\x8b", 2, "a gzip archive"},
    {"\x89HDF", 4, "an HDF5 file (Keras?)"},
    {"\x7f" "ELF", 4, "an ELF executable"},
    {"%PDF", 4, "a PDF document"},
};

const char* recogniseFormat(std::span<const std::byte> bytes) {
    for (const Signature& s : kSignatures)
        if (bytes.size() >= s.length && std::memcmp(bytes.data(), s.magic, s.length) == 0)
            return s.what;
    return nullptr;
}

} // namespace

Expected<std::shared_ptr<onnx::ModelProto>> parseModelProto(std::span<const std::byte> bytes,
                                                            const std::string& file) {
    Location where{.file = file};
    if (bytes.empty()) return error("the file is empty; an ONNX model cannot be empty", where);
    if (bytes.size() > kMaxModelFileBytes)
        return error("the file is " + std::to_string(bytes.size()) +
                         " bytes; an ONNX protobuf file cannot exceed 2 GiB (store the weights "
                         "as external data)",
                     where);
    if (const char* what = recogniseFormat(bytes))
        return error(std::string("not an ONNX model: the file is ") + what, where);

    auto model = std::make_shared<onnx::ModelProto>();
    google::protobuf::io::ArrayInputStream raw(bytes.data(), static_cast<int>(bytes.size()));
    google::protobuf::io::CodedInputStream coded(&raw);
    coded.SetTotalBytesLimit(INT_MAX);
    if (!model->ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage())
        return error("not a valid ONNX protobuf: the file is truncated or corrupt (protobuf "
                     "could not parse it as a ModelProto)",
                     where);
    if (!model->has_graph())
        return error("not an ONNX model: the protobuf has no graph (is this an ONNX file?)", where);
    if (model->ir_version() <= 0)
        return error("not an ONNX model: ir_version is missing or not positive", where);
    return model;
}

} // namespace strata::model
