#pragma once

#include <CLI/CLI.hpp>

namespace strata::cli {

// Adds `emulate MODEL --target T [--schedule S.json | --strategy S] [--trace out.json]
// [--csv out.csv] [--json]`: compiles the model, emulates the program on the target, prints the
// summary (a table, or one JSON object) and writes the trace files asked for.
void addEmulateCommand(CLI::App& app, int& exitCode);

} // namespace strata::cli
