#include "TargetArg.h"

#include "ModelArgs.h"
#include "target/TargetLoader.h"

namespace strata::cli {

void addTargetOption(CLI::App* cmd, std::string& target) {
    std::string presets;
    for (const auto& name : target::presetNames()) presets += (presets.empty() ? "" : ", ") + name;
    cmd->add_option("-t,--target", target, "Target: a preset (" + presets + ") or a target .json file")
        ->required();
}

std::optional<target::Target> loadTarget(const std::string& presetOrPath, bool quiet) {
    std::vector<Diagnostic> warnings;
    auto resolved = target::resolveTarget(presetOrPath, {}, &warnings);
    if (!resolved) {
        printDiagnostics(resolved.diagnostics());
        return std::nullopt;
    }
    if (!quiet) printDiagnostics(warnings, false);
    return std::move(resolved).value();
}

} // namespace strata::cli
