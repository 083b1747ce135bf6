#include "ModelArgs.h"

#include "model/OnnxImporter.h"

#include <iostream>

namespace strata::cli {

void addModelOptions(CLI::App* cmd, ModelArgs& args) {
    cmd->add_option("model", args.model, "ONNX model file")->required();
    cmd->add_option("--input-shape", args.inputShapes,
                    "Static shape for a graph input, e.g. image=1x3x224x224 (repeatable)");
    cmd->add_flag("-q,--quiet", args.quiet, "Do not print import warnings");
}

void printDiagnostics(const std::vector<Diagnostic>& diagnostics, bool includeNotes) {
    for (const auto& d : diagnostics)
        if (includeNotes || d.severity != Severity::Note) std::cerr << d.toString() << '\n';
}

std::shared_ptr<const ir::Graph> loadModel(const ModelArgs& args) {
    model::ImportOptions options;
    for (const auto& text : args.inputShapes) {
        auto parsed = model::parseInputShape(text);
        if (!parsed) {
            printDiagnostics(parsed.diagnostics());
            return nullptr;
        }
        options.inputShapes[parsed->first] = parsed->second;
    }
    auto imported = model::importOnnxFile(args.model, options);
    if (!imported) {
        printDiagnostics(imported.diagnostics());
        return nullptr;
    }
    if (!args.quiet) printDiagnostics(imported->warnings, false);
    return imported->graph;
}

} // namespace strata::cli
