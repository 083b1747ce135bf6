#include "ScheduleCommand.h"

#include "ExitCodes.h"
#include "ModelArgs.h"
#include "ScheduleReport.h"
#include "TargetArg.h"
#include "schedule/ScheduleJson.h"
#include "schedule/Strategies.h"

#include <iostream>
#include <memory>

namespace strata::cli {

namespace {

struct ScheduleArgs {
    ModelArgs model;
    std::string target;
    std::string strategy = "fuse-max";
    std::string schedulePath; // validate: input; schedule: -o output
    int mp = 0;
    int buffering = 2;
    bool json = false;
};

void report(const schedule::Schedule& s, const schedule::ScheduleCheck& check, const ir::Graph& graph,
            const target::Target& target, bool json) {
    if (json) {
        std::cout << scheduleJson(s, check, graph, target).dump(2) << '\n';
        return;
    }
    std::cout << scheduleText(s, check, graph, target);
    printDiagnostics(check.diagnostics);
}

int runSchedule(const ScheduleArgs& args) {
    auto strategy = schedule::parseStrategy(args.strategy);
    if (!strategy) {
        std::cerr << "error: unknown strategy '" << args.strategy << "' (per-op, rules, fuse-max)\n";
        return kExitBadInput;
    }
    auto graph = loadModel(args.model);
    if (!graph) return kExitBadInput;
    auto target = loadTarget(args.target, args.model.quiet);
    if (!target) return kExitBadInput;

    schedule::StrategyOptions options;
    options.mp = args.mp;
    options.buffering = args.buffering;
    schedule::Schedule s = schedule::makeSchedule(*graph, *target, *strategy, options);
    schedule::ScheduleCheck check = schedule::checkSchedule(s, *graph, *target);
    report(s, check, *graph, *target, args.json);
    if (!args.schedulePath.empty()) {
        auto diags = schedule::saveScheduleFile(args.schedulePath, s, *graph);
        if (!diags.empty()) {
            printDiagnostics(diags);
            return kExitFailed;
        }
    }
    return check.valid() ? kExitOk : kExitFailed;
}

int runValidate(const ScheduleArgs& args) {
    auto graph = loadModel(args.model);
    if (!graph) return kExitBadInput;
    auto target = loadTarget(args.target, args.model.quiet);
    if (!target) return kExitBadInput;
    auto loaded = schedule::loadScheduleFile(args.schedulePath, *graph);
    if (!loaded) {
        printDiagnostics(loaded.diagnostics());
        return kExitBadInput;
    }
    schedule::ScheduleCheck check = schedule::checkSchedule(*loaded, *graph, *target);
    report(*loaded, check, *graph, *target, args.json);
    return check.valid() ? kExitOk : kExitFailed;
}

} // namespace

void addScheduleCommand(CLI::App& app, int& exitCode) {
    auto args = std::make_shared<ScheduleArgs>();
    CLI::App* cmd = app.add_subcommand("schedule", "Make a starting schedule (fusion blocks and knobs) for a model");
    addModelOptions(cmd, args->model);
    addTargetOption(cmd, args->target);
    cmd->add_option("-s,--strategy", args->strategy, "per-op, rules or fuse-max")->capture_default_str();
    cmd->add_option("--mp", args->mp, "Cores per block (default: the target's maximum)")->check(CLI::Range(1, 65536));
    cmd->add_option("--buffering", args->buffering, "1 or 2 (blocks that do not fit fall back to 1)")
        ->check(CLI::Range(1, 2))
        ->capture_default_str();
    cmd->add_option("-o,--output", args->schedulePath, "Write the schedule to this JSON file");
    cmd->add_flag("--json", args->json, "Print one JSON object instead of text");
    cmd->callback([args, &exitCode] { exitCode = runSchedule(*args); });
}

void addValidateCommand(CLI::App& app, int& exitCode) {
    auto args = std::make_shared<ScheduleArgs>();
    CLI::App* cmd = app.add_subcommand("validate", "Check a schedule file against a model and a target");
    addModelOptions(cmd, args->model);
    addTargetOption(cmd, args->target);
    cmd->add_option("--schedule", args->schedulePath, "Schedule JSON file")->required();
    cmd->add_flag("--json", args->json, "Print one JSON object instead of text");
    cmd->callback([args, &exitCode] { exitCode = runValidate(*args); });
}

} // namespace strata::cli
