#pragma once

#include <CLI/CLI.hpp>

namespace strata::cli {

// Adds `accuracy MODEL... [--target host] [--strategies per-op,rules,fuse-max] [--mp 1,2]
// [--repeat N] [--json]` (docs/ACCURACY.md): per model and schedule, the emulated timeline against
// the same program run on this machine `--repeat` times (schedules interleaved, each run after a
// warm-up pass): totals and their error beside the repeats' spread, per-transfer median and 90th
// percentile error, the error by compute class and by transfer kind, per block the predicted and
// measured compute, transfer, wait and barrier time, and across each model's schedules the
// Spearman rank correlation of emulated against measured totals.
void addAccuracyCommand(CLI::App& app, int& exitCode);

} // namespace strata::cli
