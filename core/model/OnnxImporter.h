#pragma once
// ONNX import: file -> protobuf -> checks -> shape inference + constant folding -> Strata IR.
// Only core/model sees onnx or protobuf headers.

#include "base/Expected.h"
#include "ir/Graph.h"
#include "model/ImportOptions.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace strata::model {

struct ImportedModel {
    std::shared_ptr<const ir::Graph> graph;
    std::vector<Diagnostic> warnings; // notes and warnings; errors end the import instead
};

// Imports the ONNX model at `path`. External data is resolved relative to the model's folder
// under onnx's safety rules. Never throws; every problem with the input is a diagnostic.
Expected<ImportedModel> importOnnxFile(const std::string& path, const ImportOptions& options = {});

// Imports a model held in memory. `displayName` names it in diagnostics; `baseDir` is the folder
// external data is resolved against (empty: external data is rejected).
Expected<ImportedModel> importOnnxBytes(std::span<const std::byte> bytes,
                                        const std::string& displayName,
                                        const std::string& baseDir,
                                        const ImportOptions& options = {});

} // namespace strata::model
