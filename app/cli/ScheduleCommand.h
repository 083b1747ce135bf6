#pragma once

#include <CLI/CLI.hpp>

namespace strata::cli {

// Adds `schedule MODEL --target T [--strategy per-op|rules|fuse-max] [--mp N] [-o S.json]
// [--json]`: makes a starting schedule, validates and analyses it, prints it, and saves it.
void addScheduleCommand(CLI::App& app, int& exitCode);

// Adds `validate MODEL --target T --schedule S.json [--json]`: exit 0 when valid, 1 when the
// schedule is invalid for this model and target, 2 for unreadable input.
void addValidateCommand(CLI::App& app, int& exitCode);

} // namespace strata::cli
