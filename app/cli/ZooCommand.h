#pragma once

#include <CLI/CLI.hpp>

namespace strata::cli {

// Adds `zoo DIR|MODEL... [--json]`: runs every model (a folder's *.onnx, sorted) through import
// -> schedule (per-op, rules, fuse-max on mncore2, mlu100, host) -> compile -> emulate -> host
// run checked against the reference (fuse-max, rules), and prints one row per model: op count,
// each stage's time, and the first stage that fails with its diagnostic. Exit 0 when every
// model passes every stage, 1 when one fails, 2 when no model is found.
void addZooCommand(CLI::App& app, int& exitCode);

} // namespace strata::cli
