#pragma once

#include <CLI/CLI.hpp>

namespace strata::cli {

// Adds `run MODEL [--schedule S.json | --strategy S] [--input FILE] [--check] [--repeat N]
// [--trace out.json] [--json]`: compiles the model for the host target, runs it for real
// (core/runtime), prints the measured summary and, with --check, compares the outputs with the
// reference evaluation of the unfused graph.
void addRunCommand(CLI::App& app, int& exitCode);

} // namespace strata::cli
