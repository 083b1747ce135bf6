#pragma once

#include <CLI/CLI.hpp>

namespace strata::cli {

// Adds `compare EMULATED MEASURED [--json] [--force]`: two timelines of the same program matched
// by instruction id; per event and per block the predicted vs measured time and the error.
// Either file may be Strata's trace JSON or CSV (docs/TRACE_FORMAT.md); the second is validated
// against the first (unknown ids, overlapping stream events, negative durations).
void addCompareCommand(CLI::App& app, int& exitCode);

} // namespace strata::cli
