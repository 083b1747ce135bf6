#pragma once
// The program as JSON, for tools: {"strata_program": 1, model, target, cores, dram, blocks,
// instructions, streams}; docs/ISA.md lists the fields.

#include "compiler/Program.h"

#include <nlohmann/json.hpp>

namespace strata::compiler {

inline constexpr int kProgramSchemaVersion = 1;

nlohmann::json programToJson(const Program& program, const ir::Graph& graph);

} // namespace strata::compiler
