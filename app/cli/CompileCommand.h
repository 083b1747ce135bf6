#pragma once

#include <CLI/CLI.hpp>

namespace strata::cli {

// Adds `compile MODEL --target T [--schedule S.json | --strategy S] [--emit asm,json]
// -o DIR [--dump-after PASS] [--json]`: compiles through every pass, verifies, writes the
// requested files into DIR.
void addCompileCommand(CLI::App& app, int& exitCode);

} // namespace strata::cli
