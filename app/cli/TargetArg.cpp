#include "TargetArg.h"

#include "ModelArgs.h"
#include "target/CalibratedHost.h"
#include "target/TargetLoader.h"

#include <iostream>

namespace strata::cli {

void addTargetOption(CLI::App* cmd, std::string& target) {
    std::string presets;
    for (const auto& name : target::presetNames()) presets += (presets.empty() ? "" : ", ") + name;
    cmd->add_option("-t,--target", target,
                    "Target: a preset (" + presets + "; host is this computer's calibrated target when `strata-cli calibrate` "
                    "has written one, host-uncalibrated the preset) or a target .json file")
        ->required();
}

std::optional<target::Target> loadTarget(const std::string& presetOrPath, bool quiet) {
    std::vector<Diagnostic> warnings;
    auto resolved = target::resolveTarget(presetOrPath, target::userResolveOptions(), &warnings);
    if (!resolved) {
        printDiagnostics(resolved.diagnostics());
        return std::nullopt;
    }
    if (!quiet) printDiagnostics(warnings, false);
    // Which figures "host" means is not obvious from the command line: say it.
    if (!quiet && presetOrPath == "host")
        std::cerr << (resolved->calibrated ? "note: target host: calibrated figures from " + resolved->source +
                                                 " (--target host-uncalibrated for the preset)\n"
                                           : std::string("note: target host: the uncalibrated preset (run `strata-cli "
                                                         "calibrate` to measure this computer)\n"));
    return std::move(resolved).value();
}

} // namespace strata::cli
