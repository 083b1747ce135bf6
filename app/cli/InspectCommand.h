#pragma once

#include <CLI/CLI.hpp>

namespace strata::cli {

// Adds `inspect MODEL [--json] [--input-shape name=dims ...]`; the callback stores its exit
// code in `exitCode`.
void addInspectCommand(CLI::App& app, int& exitCode);

} // namespace strata::cli
