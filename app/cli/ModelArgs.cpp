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
    // A hostile file can make a diagnostic per element; the first ones say what is wrong.
    std::size_t printed = 0, left = 0;
    for (const auto& d : diagnostics) {
        if (!includeNotes && d.severity == Severity::Note)
            continue;
        if (printed == kMaxPrintedDiagnostics) {
            ++left;
            continue;
        }
        std::cerr << d.toString() << '\n';
        ++printed;
    }
    if (left > 0)
        std::cerr << "note: " << left << " more diagnostic(s) not shown\n";
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
