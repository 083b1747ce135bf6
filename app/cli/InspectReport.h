#pragma once
// What `strata-cli inspect` prints, as text or JSON, from an imported graph.

#include "ir/Graph.h"

#include <nlohmann/json.hpp>

#include <string>

namespace strata::cli {

// {"nodes", "op_types", "parameters", "flops", "inputs", "outputs", "ops"}; see README.
nlohmann::json inspectJson(const ir::Graph& graph);

// A summary (nodes, op types, parameters, FLOPs, inputs/outputs) and a per-op table.
std::string inspectText(const ir::Graph& graph);

} // namespace strata::cli
