#include "ExportCommand.h"

#include "ExitCodes.h"
#include "ModelArgs.h"
#include "ScheduleArg.h"
#include "TargetArg.h"
#include "export/Bundle.h"
#include "flow/Flow.h"
#include "reference/Evaluator.h"
#include "trace/TraceJson.h"
#include "trace/TraceValidate.h"

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace strata::cli {
namespace {

struct ExportArgs {
    ModelArgs model;
    std::string target;
    bool noCalibrate = false; // --no-calibrate
    ScheduleArgs schedule;
    std::string measuredPath;
    bool measure = false;
    std::string outputDir;
    bool json = false;
};

constexpr int kMeasureRepeats = 3; // the median run's trace is exported

int runExport(const ExportArgs& args) {
    auto graph = loadModel(args.model);
    if (!graph) return kExitBadInput;
    auto target = loadPredictionTarget(args.target, args.model.quiet, args.noCalibrate);
    if (!target) return kExitBadInput;
    auto s = loadSchedule(args.schedule, *graph, *target);
    if (!s) return kExitBadInput;
    if (!withinResourceBudget(*s, *graph, *target))
        return kExitFailed;

    // Read up front (a bad file is bad input before any work), checked against the program
    // once it is compiled.
    if (!args.measuredPath.empty()) {
        auto loaded = trace::importTrace(args.measuredPath);
        if (!loaded) {
            printDiagnostics(loaded.diagnostics());
            return kExitBadInput;
        }
    }

    // --measure: deterministic inputs, the same run each time.
    flow::Options options;
    options.run.repeat = kMeasureRepeats;
    const flow::Revision revision{*graph, *target, *s};
    flow::Result flowed = args.measure
                              ? flow::measure(revision, reference::sampleInputs(*graph, 1), options)
                              : flow::predict(revision);
    if (!flowed.ok()) {
        printDiagnostics(flowed.diagnostics);
        return kExitFailed;
    }
    const trace::Trace& emulated = *flowed.predicted;

    std::optional<trace::Trace> measured;
    if (!args.measuredPath.empty()) {
        // As `compare` reads it: JSON or CSV, every id once, and of this program when it is of
        // this model (another model's ids would each be an error; it gets one warning below).
        const auto program = trace::instructionsOf(emulated);
        auto loaded = trace::importTrace(args.measuredPath);
        const std::string& hash = loaded ? loaded->trace.modelHash : graph->contentHash;
        if (loaded && (hash.empty() || hash == graph->contentHash))
            loaded = trace::importTrace(args.measuredPath, &program);
        if (!loaded) {
            printDiagnostics(loaded.diagnostics());
            return kExitBadInput;
        }
        if (loaded->trace.events.empty()) {
            std::cerr << "error: " << args.measuredPath << ": the trace has no events\n";
            return kExitBadInput;
        }
        if (!loaded->trace.modelHash.empty() && loaded->trace.modelHash != graph->contentHash)
            std::cerr << "warning: " << args.measuredPath
                      << " was recorded for another model or version of it\n";
        if (!args.model.quiet)
            printDiagnostics(loaded->warnings, false);
        measured = std::move(loaded->trace);
    }
    if (flowed.measured)
        measured = std::move(flowed.measured->trace);

    exporting::BundleInput input;
    input.graph = graph.get();
    input.target = &*target;
    input.schedule = &*s;
    input.program = &flowed.program();
    input.emulated = &emulated;
    input.measured = measured ? &*measured : nullptr;
    auto bundle = exporting::writeBundle(input, args.outputDir);
    if (!bundle) {
        printDiagnostics(bundle.diagnostics());
        return kExitFailed;
    }
    if (!args.model.quiet) printDiagnostics(bundle->notes);

    if (args.json) {
        nlohmann::ordered_json files = nlohmann::ordered_json::array();
        for (const auto& f : bundle->files) files.push_back({{"name", f.name}, {"what", f.what}});
        std::cout << nlohmann::ordered_json{{"folder", args.outputDir}, {"files", files}}.dump(2) << "\n";
    } else {
        std::cout << "Exported '" << graph->name << "' on " << target->name << " to " << args.outputDir << ":\n";
        for (const auto& f : bundle->files) std::cout << "  " << f.name << "  (" << f.what << ")\n";
    }
    return kExitOk;
}

} // namespace

void addExportCommand(CLI::App& app, int& exitCode) {
    auto args = std::make_shared<ExportArgs>();
    CLI::App* cmd = app.add_subcommand("export", "Write every artefact of one compile into a folder, with a report");
    addModelOptions(cmd, args->model);
    addTargetOption(cmd, args->target);
    addNoCalibrateOption(cmd, args->noCalibrate);
    addScheduleOptions(cmd, args->schedule);
    cmd->add_option("--measured", args->measuredPath, "A measured trace to include (strata-cli run --trace, or imported)");
    cmd->add_flag("--measure", args->measure, "Run the program on this computer (host target) and include the measured trace")
        ->excludes("--measured");
    cmd->add_option("-o,--output", args->outputDir, "The bundle's folder (created if needed)")->required();
    cmd->add_flag("--json", args->json, "Print the files written as one JSON object");
    cmd->callback([args, &exitCode] { exitCode = runExport(*args); });
}

} // namespace strata::cli
