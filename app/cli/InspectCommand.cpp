#include "InspectCommand.h"

#include "ExitCodes.h"
#include "InspectReport.h"
#include "ModelArgs.h"

#include <iostream>
#include <memory>

namespace strata::cli {

namespace {

struct InspectArgs {
    ModelArgs model;
    bool json = false;
};

int runInspect(const InspectArgs& args) {
    auto graph = loadModel(args.model);
    if (!graph) return kExitBadInput;
    if (args.json)
        std::cout << inspectJson(*graph).dump(2) << '\n';
    else
        std::cout << inspectText(*graph);
    return kExitOk;
}

} // namespace

void addInspectCommand(CLI::App& app, int& exitCode) {
    auto args = std::make_shared<InspectArgs>();
    CLI::App* cmd = app.add_subcommand("inspect", "Import an ONNX model and summarise it");
    addModelOptions(cmd, args->model);
    cmd->add_flag("--json", args->json, "Print one JSON object instead of text");
    cmd->callback([args, &exitCode] { exitCode = runInspect(*args); });
}

} // namespace strata::cli
