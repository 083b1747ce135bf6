#pragma once
// What every command that reads a model shares: the MODEL argument, --input-shape, and
// importing with diagnostics printed to stderr.

#include "base/Diagnostic.h"
#include "ir/Graph.h"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

namespace strata::cli {

struct ModelArgs {
    std::string model;
    std::vector<std::string> inputShapes;
    bool quiet = false;
};

// Adds the positional MODEL, --input-shape and -q/--quiet to `cmd`.
void addModelOptions(CLI::App* cmd, ModelArgs& args);

// The imported graph, or nullptr after printing why not.
std::shared_ptr<const ir::Graph> loadModel(const ModelArgs& args);

// Prints to stderr; notes only when asked.
// At most kMaxPrintedDiagnostics, then a count of the rest.
inline constexpr std::size_t kMaxPrintedDiagnostics = 50;
void printDiagnostics(const std::vector<Diagnostic>& diagnostics, bool includeNotes = true);

} // namespace strata::cli
