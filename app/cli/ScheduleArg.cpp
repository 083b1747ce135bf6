#include "ScheduleArg.h"

#include "ModelArgs.h"
#include "schedule/ResourceBudget.h"
#include "schedule/ScheduleJson.h"
#include "schedule/Strategies.h"

#include <iostream>

namespace strata::cli {

void addScheduleOptions(CLI::App* cmd, ScheduleArgs& args) {
    cmd->add_option("--schedule", args.path, "Schedule JSON file (default: make one with --strategy)");
    cmd->add_option("-s,--strategy", args.strategy, "per-op, rules or fuse-max")->capture_default_str();
}

std::optional<schedule::Schedule> loadSchedule(const ScheduleArgs& args, const ir::Graph& graph,
                                               const target::Target& target) {
    if (!args.path.empty()) {
        auto loaded = schedule::loadScheduleFile(args.path, graph);
        if (!loaded) {
            printDiagnostics(loaded.diagnostics());
            return std::nullopt;
        }
        return std::move(loaded).value();
    }
    auto strategy = schedule::parseStrategy(args.strategy);
    if (!strategy) {
        std::cerr << "error: unknown strategy '" << args.strategy << "' (per-op, rules, fuse-max)\n";
        return std::nullopt;
    }
    return schedule::makeSchedule(graph, target, *strategy);
}

bool withinResourceBudget(const schedule::Schedule& schedule, const ir::Graph& graph,
                          const target::Target& target, bool forRun) {
    const auto refused = schedule::checkResourceBudget(schedule, graph, target, forRun);
    printDiagnostics(refused);
    return refused.empty();
}

} // namespace strata::cli
