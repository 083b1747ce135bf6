#pragma once
// How the timeline commands (emulate, run, compare) print times: nanoseconds in JSON, readable
// durations in tables, and the per-block JSON rows that emulate and run share.

#include "trace/TraceSummary.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace strata::cli {

inline double ns(std::int64_t ps) { return double(ps) / 1e3; }

// "1.234 ms", "56.789 us", "12.0 ns".
std::string duration(std::int64_t ps);

// [{"id", "time_ns", "transfer_ns", "compute_ns", "stall_ns", "dram_bytes"}] by block id.
nlohmann::ordered_json blocksJson(const trace::TraceSummary& summary);

} // namespace strata::cli
