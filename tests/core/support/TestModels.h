#pragma once
// Test fixtures: models written in ONNX's text syntax, and a temporary folder.

#include "base/Expected.h"
#include "model/OnnxImporter.h"

#include <filesystem>
#include <string>

namespace strata::test {

// Parses ONNX text syntax (onnx/defs/parser.h) and returns the serialized ModelProto. Fails the
// current test on a parse error.
std::string modelBytes(const std::string& text);

// Imports a model given in text syntax from memory (no external data).
Expected<model::ImportedModel> importText(const std::string& text,
                                          const model::ImportOptions& options = {});

// True when some diagnostic's text contains `needle`.
bool mentions(const std::vector<Diagnostic>& diagnostics, const std::string& needle);
std::string joined(const std::vector<Diagnostic>& diagnostics);

class TempDir {
  public:
    TempDir();
    ~TempDir();
    const std::filesystem::path& path() const { return m_path; }
    std::filesystem::path write(const std::string& name, const std::string& bytes) const;

  private:
    std::filesystem::path m_path;
};

} // namespace strata::test

#include <onnx/onnx_pb.h>

namespace strata::test {

// The parsed ModelProto, for tests that corrupt a model in ways text syntax cannot express.
onnx::ModelProto modelProto(const std::string& text);

// Imports a (possibly corrupted) ModelProto from memory.
Expected<model::ImportedModel> importProto(const onnx::ModelProto& model,
                                           const model::ImportOptions& options = {});

} // namespace strata::test
