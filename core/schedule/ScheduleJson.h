#pragma once
// The schedule file format (docs/SCHEDULES.md): JSON with a schema version, the model's name and
// content hash, the target and strategy, and the blocks in execution order with their ops by
// name. Loading resolves op names against the graph; validate() then checks the partition.

#include "base/Expected.h"
#include "schedule/Schedule.h"

#include <string>
#include <string_view>

namespace strata::schedule {

std::string scheduleToJson(const Schedule& schedule, const ir::Graph& graph);

// Errors for malformed files, a newer schema, a schedule made for another model (content hash),
// unknown op names and ill-typed knobs; each names the file and the field.
Expected<Schedule> parseSchedule(std::string_view text, const std::string& file, const ir::Graph& graph);
Expected<Schedule> loadScheduleFile(const std::string& path, const ir::Graph& graph);

// Writes atomically (a temporary file renamed over `path`), so a failed save loses nothing.
std::vector<Diagnostic> saveScheduleFile(const std::string& path, const Schedule& schedule,
                                         const ir::Graph& graph);

} // namespace strata::schedule
