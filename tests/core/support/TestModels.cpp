#include "support/TestModels.h"

#include <gtest/gtest.h>
#include <onnx/defs/parser.h>

#include <fstream>
#include <random>

namespace strata::test {

std::string modelBytes(const std::string& text) { return modelProto(text).SerializeAsString(); }

Expected<model::ImportedModel> importText(const std::string& text,
                                          const model::ImportOptions& options) {
    return importProto(modelProto(text), options);
}

std::string joined(const std::vector<Diagnostic>& diagnostics) {
    std::string out;
    for (const auto& d : diagnostics) out += d.toString() + "\n";
    return out;
}

bool mentions(const std::vector<Diagnostic>& diagnostics, const std::string& needle) {
    return joined(diagnostics).find(needle) != std::string::npos;
}

TempDir::TempDir() {
    std::random_device rd;
    m_path = std::filesystem::temp_directory_path() / ("strata-test-" + std::to_string(rd()));
    std::filesystem::create_directories(m_path);
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
}

std::filesystem::path TempDir::write(const std::string& name, const std::string& bytes) const {
    const auto p = m_path / name;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
    return p;
}

} // namespace strata::test

namespace strata::test {

onnx::ModelProto modelProto(const std::string& text) {
    onnx::ModelProto model;
    onnx::OnnxParser parser(text.c_str());
    auto status = parser.Parse(model);
    EXPECT_TRUE(status.IsOK()) << status.ErrorMessage() << "\n" << text;
    return model;
}

Expected<model::ImportedModel> importProto(const onnx::ModelProto& model,
                                           const model::ImportOptions& options) {
    const std::string bytes = model.SerializeAsString();
    return model::importOnnxBytes(
        {reinterpret_cast<const std::byte*>(bytes.data()), bytes.size()}, "test.onnx", "", options);
}

} // namespace strata::test
