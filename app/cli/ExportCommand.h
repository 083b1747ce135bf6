#pragma once

#include <CLI/CLI.hpp>

namespace strata::cli {

// Adds `export MODEL [--target T] [--schedule S.json | --strategy S] [--measure | --measured
// TRACE.json] -o DIR [--json]`: compiles and emulates the model (and with --measure runs it on
// this computer) and writes the bundle of core/export: assembly, program JSON, generated C++,
// schedule, emulated and measured timelines, manifest and report. Plots need Qt, so the
// CLI's bundle has none (docs/EXPORT.md).
void addExportCommand(CLI::App& app, int& exitCode);

} // namespace strata::cli
