#pragma once
// What `strata-cli schedule` and `validate` print: a schedule with its per-block analysis, as
// JSON or as a text table.

#include "schedule/Validate.h"

#include <nlohmann/json.hpp>

#include <string>

namespace strata::cli {

// {"target", "strategy", "valid", "model_hash", "blocks": [{"id", "ops", "mp", "tile",
//  "tile_auto", "tiles", "buffering", "flops", "recompute", "dram_bytes", "dram_read_bytes",
//  "dram_write_bytes", "sram_peak_bytes", "arithmetic_intensity"}], "dram_bytes", "flops",
//  "unfused_flops", "working_memory_bytes", "diagnostics": [str]}
nlohmann::json scheduleJson(const schedule::Schedule& schedule, const schedule::ScheduleCheck& check,
                            const ir::Graph& graph, const target::Target& target);

std::string scheduleText(const schedule::Schedule& schedule, const schedule::ScheduleCheck& check,
                         const ir::Graph& graph, const target::Target& target);

} // namespace strata::cli
