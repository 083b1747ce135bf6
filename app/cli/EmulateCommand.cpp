#include "EmulateCommand.h"

#include "ExitCodes.h"
#include "ModelArgs.h"
#include "ScheduleArg.h"
#include "TargetArg.h"
#include "TraceFigures.h"
#include "base/SafeFiles.h"
#include "flow/Flow.h"
#include "trace/TraceCsv.h"
#include "trace/TraceJson.h"
#include "trace/TraceSummary.h"

#include <algorithm>
#include <fmt/format.h>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace strata::cli {

namespace {

struct EmulateArgs {
    ModelArgs model;
    std::string target;
    bool noCalibrate = false; // --no-calibrate
    ScheduleArgs schedule;
    std::string tracePath;
    std::string csvPath;
    bool json = false;
};

constexpr std::size_t kTableBlocks = 15; // the text report lists the slowest blocks only

nlohmann::ordered_json summaryJson(const trace::Trace& trace, const trace::TraceSummary& summary) {
    nlohmann::ordered_json paths = nlohmann::ordered_json::array();
    for (const auto& p : summary.paths)
        paths.push_back({{"name", trace.paths[p.path].name}, {"bytes", p.bytes}, {"busy_fraction", p.busyFraction}});
    return {{"source", std::string(trace::sourceName(trace.source))},
            {"total_ns", ns(summary.totalPs)},
            {"events", trace.events.size()},
            {"blocks", blocksJson(summary)},
            {"paths", paths}};
}

void printTable(const trace::Trace& trace, const trace::TraceSummary& summary, const std::string& strategyLabel,
                std::size_t blockCount) {
    std::cout << fmt::format("Emulated '{}' on {} ({}, {} blocks): {} events, total {} (emulated, not measured)\n",
                             trace.modelName, trace.target, strategyLabel, blockCount, trace.events.size(),
                             duration(summary.totalPs));
    std::vector<trace::BlockSummary> blocks = summary.blocks;
    std::stable_sort(blocks.begin(), blocks.end(), [](const auto& a, const auto& b) { return a.timePs > b.timePs; });
    std::cout << fmt::format("\n{:<8} {:>12} {:>12} {:>12} {:>12} {:>12}\n", "block", "time", "transfer", "compute",
                             "stall", "DRAM bytes");
    for (std::size_t i = 0; i < std::min(blocks.size(), kTableBlocks); ++i) {
        const auto& b = blocks[i];
        std::cout << fmt::format("{:<8} {:>12} {:>12} {:>12} {:>12} {:>12}\n", schedule::blockName(b.block),
                                 duration(b.timePs), duration(b.transferPs), duration(b.computePs), duration(b.stallPs),
                                 b.dramBytes);
    }
    if (blocks.size() > kTableBlocks)
        std::cout << fmt::format("({} more blocks; --json lists all)\n", blocks.size() - kTableBlocks);
    std::cout << fmt::format("\n{:<12} {:>16} {:>10} {:>8}\n", "path", "bytes", "transfers", "busy");
    for (const auto& p : summary.paths)
        if (p.transfers > 0)
            std::cout << fmt::format("{:<12} {:>16} {:>10} {:>7.1f}%\n", trace.paths[p.path].name, p.bytes, p.transfers,
                                     100 * p.busyFraction);
    const auto& c = summary.critical;
    auto share = [&](std::int64_t ps) { return summary.totalPs > 0 ? 100.0 * double(ps) / double(summary.totalPs) : 0.0; };
    std::cout << fmt::format("\ncritical path: {} events; compute {:.1f}%, transfer {:.1f}%, wait {:.1f}%, barrier {:.1f}%, "
                             "idle {:.1f}%\n",
                             c.events.size(), share(c.computePs), share(c.transferPs), share(c.waitPs),
                             share(c.barrierPs), share(c.gapPs));
}

bool writeFile(const std::string& path, const std::function<void(std::ostream&)>& write) {
    auto failed = writeFileAtomically(path, write);
    if (failed)
        printDiagnostics({*failed});
    return !failed;
}

int runEmulate(const EmulateArgs& args) {
    auto graph = loadModel(args.model);
    if (!graph) return kExitBadInput;
    auto target = loadPredictionTarget(args.target, args.model.quiet, args.noCalibrate);
    if (!target) return kExitBadInput;

    auto loadedSchedule = loadSchedule(args.schedule, *graph, *target);
    if (!loadedSchedule) return kExitBadInput;
    const schedule::Schedule& s = *loadedSchedule;
    if (!withinResourceBudget(s, *graph, *target))
        return kExitFailed;
    const flow::Result predicted = flow::predict({*graph, *target, s});
    if (!predicted.ok()) {
        printDiagnostics(predicted.diagnostics);
        return kExitFailed;
    }
    const trace::Trace& emulated = *predicted.predicted;
    const trace::TraceSummary& summary = predicted.predictedSummary;

    if (!args.tracePath.empty() && !writeFile(args.tracePath, [&](std::ostream& o) { trace::writeTraceJson(emulated, o); }))
        return kExitFailed;
    if (!args.csvPath.empty() && !writeFile(args.csvPath, [&](std::ostream& o) { trace::writeTraceCsv(emulated, o); }))
        return kExitFailed;

    if (args.json) {
        std::cout << summaryJson(emulated, summary).dump(2) << "\n";
    } else {
        printTable(emulated, summary, args.schedule.path.empty() ? s.strategy : args.schedule.path, s.blocks.size());
        for (const auto* path : {&args.tracePath, &args.csvPath})
            if (!path->empty()) std::cout << "wrote " << *path << "\n";
    }
    return kExitOk;
}

} // namespace

void addEmulateCommand(CLI::App& app, int& exitCode) {
    auto args = std::make_shared<EmulateArgs>();
    CLI::App* cmd = app.add_subcommand("emulate", "Predict the timeline of the compiled model on a target");
    addModelOptions(cmd, args->model);
    addTargetOption(cmd, args->target);
    addNoCalibrateOption(cmd, args->noCalibrate);
    addScheduleOptions(cmd, args->schedule);
    cmd->add_option("--trace", args->tracePath, "Write the timeline as Chrome trace JSON (opens in Perfetto)");
    cmd->add_option("--csv", args->csvPath, "Write the timeline's events as CSV");
    cmd->add_flag("--json", args->json, "Print one JSON object instead of text");
    cmd->callback([args, &exitCode] { exitCode = runEmulate(*args); });
}

} // namespace strata::cli
