#pragma once

#include <CLI/CLI.hpp>

namespace strata::cli {

// Adds `search MODEL --target T [--start per-op|rules|fuse-max|S.json] [--budget SECONDS]
// [--objective latency|dram|pareto] [--algorithm local|evolution] [--seed N] [--max-candidates N]
// [--threads N] [--measure K] [-o S.json] [--json]`: searches schedules with the compiler and
// the emulator (core/search), prints the baselines, the best found and the Pareto front, and
// writes the best as a schedule file. --measure K runs the K best predicted (and the best
// built-in strategy) on the host and keeps the measured fastest.
void addSearchCommand(CLI::App& app, int& exitCode);

} // namespace strata::cli
