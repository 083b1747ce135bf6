// External data under onnx 1.21's safety rules.

#include "support/TestModels.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

namespace strata {
namespace {

namespace fs = std::filesystem;

struct External {
    std::string location;
    std::string offset;
    std::string length;
};

// A MatMul whose weight W (float[2, 2]) lives in external data; the model is written to `dir`.
fs::path writeModel(const test::TempDir& dir, const External& ext, const std::string& sub = "") {
    auto m = test::modelProto(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 2] X) => (float[1, 2] Y) {
    Y = MatMul (X, W)
}
)");
    auto* w = m.mutable_graph()->add_initializer();
    w->set_name("W");
    w->set_data_type(onnx::TensorProto::FLOAT);
    w->add_dims(2);
    w->add_dims(2);
    w->set_data_location(onnx::TensorProto::EXTERNAL);
    auto add = [&](const char* key, const std::string& value) {
        if (value.empty()) return;
        auto* e = w->add_external_data();
        e->set_key(key);
        e->set_value(value);
    };
    add("location", ext.location);
    add("offset", ext.offset);
    add("length", ext.length);
    return dir.write(sub + "model.onnx", m.SerializeAsString());
}

std::string weightBytes() {
    const float w[4] = {1.f, 2.f, 3.f, 4.f};
    return std::string(reinterpret_cast<const char*>(w), sizeof w);
}

Expected<model::ImportedModel> load(const fs::path& p) { return model::importOnnxFile(p.string()); }

#define EXPECT_REJECTED(result, needle)                                                            \
    do {                                                                                           \
        const auto& r_ = (result);                                                                 \
        ASSERT_FALSE(r_.ok()) << "expected a diagnostic mentioning: " << (needle);                 \
        EXPECT_TRUE(test::mentions(r_.diagnostics(), needle)) << test::joined(r_.diagnostics());   \
    } while (0)

TEST(ExternalData, LoadsByReference) {
    test::TempDir dir;
    dir.write("weights.bin", "pad!" + weightBytes());
    auto r = load(writeModel(dir, {"weights.bin", "4", "16"}));
    ASSERT_TRUE(r.ok()) << test::joined(r.diagnostics());
    const ir::Value& w = r->graph->value(*r->graph->findValue("W"));
    ASSERT_EQ(w.data.size, 16u);
    float values[4];
    std::memcpy(values, w.data.data, 16);
    EXPECT_EQ(values[3], 4.f);
    EXPECT_EQ(r->graph->parameterCount, 4u);
}

TEST(ExternalData, RejectsPathsThatEscape) {
    test::TempDir dir;
    dir.write("outside.bin", weightBytes());
    dir.write("m/a/inside.bin", weightBytes());
    EXPECT_REJECTED(load(writeModel(dir, {"../outside.bin", "", ""}, "m/")), "escapes the model's folder");
    EXPECT_REJECTED(load(writeModel(dir, {"a/../../outside.bin", "", ""}, "m/")), "escapes the model's folder");
    EXPECT_REJECTED(load(writeModel(dir, {(dir.path() / "outside.bin").string(), "", ""}, "m/")),
                    "is an absolute path");
    // Inside after normalisation is fine.
    EXPECT_TRUE(load(writeModel(dir, {"a/../a/inside.bin", "", ""}, "m/")).ok());
}

TEST(ExternalData, RejectsSymlinks) {
    test::TempDir dir;
    dir.write("real/weights.bin", weightBytes());
    fs::create_directories(dir.path() / "m");
    fs::create_symlink(dir.path() / "real/weights.bin", dir.path() / "m/link.bin");
    fs::create_directory_symlink(dir.path() / "real", dir.path() / "m/linkdir");
    EXPECT_REJECTED(load(writeModel(dir, {"link.bin", "", ""}, "m/")), "symlinks are not allowed");
    EXPECT_REJECTED(load(writeModel(dir, {"linkdir/weights.bin", "", ""}, "m/")), "symlinks are not allowed");
}

TEST(ExternalData, RejectsBadOffsetsAndLengths) {
    test::TempDir dir;
    dir.write("w.bin", weightBytes());
    EXPECT_REJECTED(load(writeModel(dir, {"w.bin", "-1", ""})), "offset '-1' is not a non-negative integer");
    EXPECT_REJECTED(load(writeModel(dir, {"w.bin", "", "-16"})), "length '-16' is not a non-negative integer");
    EXPECT_REJECTED(load(writeModel(dir, {"w.bin", "18446744073709551615", "16"})), "past the end");
    EXPECT_REJECTED(load(writeModel(dir, {"w.bin", "8", "18446744073709551615"})), "exceeds the size");
    EXPECT_REJECTED(load(writeModel(dir, {"w.bin", "8", "16"})), "exceeds the size");
    EXPECT_REJECTED(load(writeModel(dir, {"w.bin", "0", "8"})), "does not match the 16 bytes");
    EXPECT_REJECTED(load(writeModel(dir, {"w.bin", "99999999999999999999999", ""})), "not a non-negative integer");
}

TEST(ExternalData, RejectsMissingFileAndDirectories) {
    test::TempDir dir;
    fs::create_directories(dir.path() / "adir");
    EXPECT_REJECTED(load(writeModel(dir, {"missing.bin", "", ""})), "does not exist");
    EXPECT_REJECTED(load(writeModel(dir, {"adir", "", ""})), "not a regular file");
    EXPECT_REJECTED(load(writeModel(dir, {"", "", ""})), "empty location");
}

TEST(ExternalData, RejectedWhenLoadedFromMemory) {
    test::TempDir dir;
    const auto path = writeModel(dir, {"w.bin", "", ""});
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    auto r = model::importOnnxBytes({reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()},
                                    "mem.onnx", "");
    EXPECT_REJECTED(r, "not loaded from a folder");
}

} // namespace
} // namespace strata
