#pragma once
// --target: a preset name or a target file.

#include "target/Target.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace strata::cli {

void addTargetOption(CLI::App* cmd, std::string& target);

// The resolved target, or nullopt after printing why not. Warnings go to stderr unless quiet.
std::optional<target::Target> loadTarget(const std::string& presetOrPath, bool quiet);

// --no-calibrate, for the commands that predict (emulate, accuracy, search, export).
void addNoCalibrateOption(CLI::App* cmd, bool& noCalibrate);

// loadTarget for a prediction: `host` with no calibration usable on this machine (none yet, made
// on another CPU, unreadable) is calibrated first and saved where `host` finds it, saying so on
// stderr (docs/CALIBRATION.md). Not with `noCalibrate` or $STRATA_NO_CALIBRATE set: then an
// unreadable calibration is a warning and `host` the uncalibrated preset.
std::optional<target::Target> loadPredictionTarget(const std::string& presetOrPath, bool quiet,
                                                   bool noCalibrate);

} // namespace strata::cli
