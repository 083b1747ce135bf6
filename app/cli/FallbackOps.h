#pragma once
// The ops of a model the emulator costs with a figure measured on other work (its own figure is
// absent from the target: emulator::costFigureOf), grouped by op type. `accuracy` and `compare
// --model` list them, so a user knows which predictions rest on a borrowed figure.

#include "ir/Graph.h"
#include "target/Target.h"

#include <nlohmann/json.hpp>
#include <string>

namespace strata::cli {

// [{"op_type", "ops" (count), "costed_as" (the figure used), "missing" (the figure absent)}].
nlohmann::ordered_json fallbackOps(const ir::Graph& graph, const target::Target& target);

// "Resize x2 at elementwise (no resize figure), ..."; empty when there are none.
std::string fallbackList(const nlohmann::ordered_json& fallbacks);

} // namespace strata::cli
