#include "InspectCommand.h"

#include "ExitCodes.h"
#include "InspectReport.h"
#include "model/OnnxImporter.h"

#include <iostream>
#include <memory>

namespace strata::cli {

namespace {

struct InspectArgs {
    std::string model;
    bool json = false;
    bool quiet = false;
    std::vector<std::string> inputShapes;
};

void printDiagnostics(const std::vector<Diagnostic>& diagnostics, bool includeNotes) {
    for (const auto& d : diagnostics)
        if (includeNotes || d.severity != Severity::Note) std::cerr << d.toString() << '\n';
}

int runInspect(const InspectArgs& args) {
    model::ImportOptions options;
    for (const auto& text : args.inputShapes) {
        auto parsed = model::parseInputShape(text);
        if (!parsed) {
            printDiagnostics(parsed.diagnostics(), true);
            return kExitBadInput;
        }
        options.inputShapes[parsed->first] = parsed->second;
    }
    auto imported = model::importOnnxFile(args.model, options);
    if (!imported) {
        printDiagnostics(imported.diagnostics(), true);
        return kExitBadInput;
    }
    if (!args.quiet) printDiagnostics(imported->warnings, false);
    if (args.json)
        std::cout << inspectJson(*imported->graph).dump(2) << '\n';
    else
        std::cout << inspectText(*imported->graph);
    return kExitOk;
}

} // namespace

void addInspectCommand(CLI::App& app, int& exitCode) {
    auto args = std::make_shared<InspectArgs>();
    CLI::App* cmd = app.add_subcommand("inspect", "Import an ONNX model and summarise it");
    cmd->add_option("model", args->model, "ONNX model file")->required();
    cmd->add_flag("--json", args->json, "Print one JSON object instead of text");
    cmd->add_flag("-q,--quiet", args->quiet, "Do not print import warnings");
    cmd->add_option("--input-shape", args->inputShapes,
                    "Static shape for a graph input, e.g. image=1x3x224x224 (repeatable)");
    cmd->callback([args, &exitCode] { exitCode = runInspect(*args); });
}

} // namespace strata::cli
