#pragma once

#include <CLI/CLI.hpp>

namespace strata::cli {

// Adds `microbench --target T --kinds mvp,mvb --sizes 1..4096 --in-flight 2 [--json]`: the
// transfer experiment of seed 004, emulated; throughput per size and kind with the sequential
// ideal. `--measure [--repeat N]` also runs the programs on this computer (host target) with the
// host runtime and prints measured next to emulated throughput, as the seed's figures do.
void addMicrobenchCommand(CLI::App& app, int& exitCode);

} // namespace strata::cli
