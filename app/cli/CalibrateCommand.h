#pragma once

#include <CLI/CLI.hpp>

namespace strata::cli {

// Adds `calibrate [-t host] [-o host.calibrated.json] [--json] [--quick]`: micro-benchmarks on
// this computer through the host runtime, the host target's figures fitted to them, the
// calibrated target written, and each fit's error reported (docs/CALIBRATION.md).
void addCalibrateCommand(CLI::App& app, int& exitCode);

} // namespace strata::cli
