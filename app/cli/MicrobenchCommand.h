#pragma once

#include <CLI/CLI.hpp>

namespace strata::cli {

// Adds `microbench --target T --kinds mvp,mvb --sizes 1..4096 --in-flight 2 [--json]`: the
// transfer experiment of seed 004, emulated; throughput per size and kind with the sequential
// ideal. `--measure` (running it for real) is reserved for the host runtime.
void addMicrobenchCommand(CLI::App& app, int& exitCode);

} // namespace strata::cli
