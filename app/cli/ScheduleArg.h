#pragma once
// --schedule FILE | --strategy NAME: the schedule a compiling command works on.

#include "schedule/Schedule.h"
#include "target/Target.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace strata::cli {

struct ScheduleArgs {
    std::string path;               // a schedule file; empty: make one with `strategy`
    std::string strategy = "rules";
};

void addScheduleOptions(CLI::App* cmd, ScheduleArgs& args);

// The schedule file loaded for `graph`, or the strategy's schedule; nullopt after printing why
// not (a bad file or an unknown strategy: bad input).
std::optional<schedule::Schedule> loadSchedule(const ScheduleArgs& args, const ir::Graph& graph,
                                               const target::Target& target);

// True when compiling (and emulating, or with `forRun` running) `schedule` stays within
// schedule/ResourceBudget.h's limits; otherwise prints why (the work does not fit: exit 1).
bool withinResourceBudget(const schedule::Schedule& schedule, const ir::Graph& graph,
                          const target::Target& target, bool forRun = false);

} // namespace strata::cli
