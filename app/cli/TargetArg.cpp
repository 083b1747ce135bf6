#include "TargetArg.h"

#include "ModelArgs.h"
#include "calibrate/FirstCalibration.h"
#include "target/CalibratedHost.h"
#include "target/TargetLoader.h"

#include <cstdlib>
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

void addNoCalibrateOption(CLI::App* cmd, bool& noCalibrate) {
    cmd->add_flag("--no-calibrate", noCalibrate,
                  "With --target host: do not calibrate this computer first when it has no "
                  "calibration (the same as "
                  "STRATA_NO_CALIBRATE=1; host is then the uncalibrated preset)");
}

std::optional<target::Target> loadPredictionTarget(const std::string& presetOrPath, bool quiet,
                                                   bool noCalibrate) {
    if (presetOrPath != "host")
        return loadTarget(presetOrPath, quiet);
    const std::string file = target::defaultCalibratedHostFile();
    const char* env = std::getenv("STRATA_NO_CALIBRATE");
    if (noCalibrate || (env && *env && std::string(env) != "0")) {
        // Asked not to measure: a broken file then means the preset, with the reason, not a
        // failure.
        target::HostCalibration found = target::inspectHostCalibration(file, target::probeHost());
        if (found.state != target::CalibrationState::Unreadable)
            return loadTarget(presetOrPath, quiet);
        if (!quiet) {
            for (Diagnostic& d : found.problems)
                d.severity = Severity::Warning;
            printDiagnostics(found.problems, false);
            std::cerr << "warning: the calibrated host target " << file
                      << " does not load (above): using the uncalibrated preset\n";
        }
        return loadTarget(std::string(target::kUncalibratedHost), quiet);
    }
    const calibrate::FirstCalibration first =
        calibrate::ensureHostCalibrated(file, {}, [quiet](const std::string& message) {
            if (!quiet)
                std::cerr << message << "\n";
        });
    if (!quiet)
        printDiagnostics(first.diagnostics, false);
    // Measured but not saved (or the measuring failed): the preset, as the warnings said.
    if (first.found.needsCalibrating() && !first.saved)
        return loadTarget(std::string(target::kUncalibratedHost), quiet);
    return loadTarget(presetOrPath, quiet);
}

} // namespace strata::cli
