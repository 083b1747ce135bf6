#include "CompareCommand.h"

#include "ExitCodes.h"
#include "FallbackOps.h"
#include "ModelArgs.h"
#include "TargetArg.h"
#include "TraceFigures.h"
#include "trace/TraceCompare.h"
#include "trace/TraceValidate.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace strata::cli {

namespace {

struct CompareArgs {
    std::string emulated;
    std::string measured;
    bool json = false;
    bool force = false;
    bool quiet = false;
    std::string model; // --model: list the ops the prediction costed with a borrowed figure
};

constexpr std::size_t kTableBlocks = 20; // the text report lists the worst blocks only

std::string percent(double fraction) { return fmt::format("{:+.1f}%", 100 * fraction); }

nlohmann::ordered_json comparisonJson(const trace::TraceComparison& c) {
    nlohmann::ordered_json blocks = nlohmann::ordered_json::array();
    for (const auto& b : c.blocks)
        blocks.push_back({{"id", b.block}, {"emulated_ns", ns(b.emulatedPs)}, {"measured_ns", ns(b.measuredPs)}, {"error", b.error}});
    return {{"matched", c.matched},
            {"total_emulated_ns", ns(c.totalEmulatedPs)},
            {"total_measured_ns", ns(c.totalMeasuredPs)},
            {"total_error", c.totalError},
            {"transfer_median_abs_error", c.transferMedianAbsError},
            {"blocks", blocks}};
}

void printTable(const trace::TraceComparison& c, const trace::Trace& emulated, const trace::Trace& measured,
                const CompareArgs& args) {
    std::cout << fmt::format("{} ({}) vs {} ({}): {} events matched; model '{}', target '{}'\n", args.emulated,
                             trace::sourceName(emulated.source), args.measured, trace::sourceName(measured.source), c.matched,
                             emulated.modelName, emulated.target);
    std::cout << fmt::format("total: {} predicted, {} measured, error {} (predicted - measured) / measured\n",
                             duration(c.totalEmulatedPs), duration(c.totalMeasuredPs), percent(c.totalError));
    std::cout << "median |error| per event:";
    for (trace::EventKind k : {trace::EventKind::Transfer, trace::EventKind::Compute, trace::EventKind::Wait,
                               trace::EventKind::Barrier}) {
        const int i = static_cast<int>(k);
        if (c.compared[i]) std::cout << fmt::format(" {} {:.1f}% ({})", trace::eventKindName(k), 100 * c.medianAbsError[i], c.compared[i]);
    }
    std::cout << "\n";

    std::vector<trace::BlockComparison> blocks = c.blocks;
    std::stable_sort(blocks.begin(), blocks.end(),
                     [](const auto& a, const auto& b) { return std::fabs(a.error) > std::fabs(b.error); });
    std::cout << fmt::format("\n{:<8} {:>14} {:>14} {:>9}\n", "block", "predicted", "measured", "error");
    for (std::size_t i = 0; i < std::min(blocks.size(), kTableBlocks); ++i) {
        const auto& b = blocks[i];
        std::cout << fmt::format("{:<8} {:>14} {:>14} {:>9}\n", "b" + std::to_string(b.block), duration(b.emulatedPs),
                                 duration(b.measuredPs), percent(b.error));
    }
    if (blocks.size() > kTableBlocks)
        std::cout << fmt::format("({} more blocks, all within {}; --json lists all)\n", blocks.size() - kTableBlocks,
                                 fmt::format("{:.1f}%", 100 * std::fabs(blocks[kTableBlocks - 1].error)));
}

int runCompare(const CompareArgs& args) {
    auto first = trace::importTrace(args.emulated);
    if (!first) {
        printDiagnostics(first.diagnostics());
        return kExitBadInput;
    }
    // An emulated trace times every instruction once: it describes the program the second is checked against.
    const std::vector<trace::InstructionRef> program = trace::instructionsOf(first->trace);
    const bool complete = first->trace.source == trace::Source::Emulated;
    auto second = trace::importTrace(args.measured);
    if (!second) {
        printDiagnostics(second.diagnostics());
        return kExitBadInput;
    }
    // Checked against the program only when both are of one model: otherwise the comparison
    // refuses them with that reason rather than a list of ids that do not fit.
    const std::string& a = first->trace.modelHash;
    const std::string& b = second->trace.modelHash;
    if (complete && (a.empty() || b.empty() || a == b)) {
        second = trace::importTrace(args.measured, &program);
        if (!second) {
            printDiagnostics(second.diagnostics());
            // The second file is valid on its own: what it does not match is the first one.
            std::cerr << "note: " << args.measured << " was checked against the instructions of "
                      << args.emulated << " (" << first->trace.events.size()
                      << " events); if that file was edited or damaged, the fault is there\n";
            return kExitBadInput;
        }
    }
    auto comparison = trace::compareTraces(first->trace, second->trace, {.allowModelMismatch = args.force});
    if (!comparison) {
        printDiagnostics(comparison.diagnostics());
        return kExitBadInput;
    }
    if (!args.quiet) {
        printDiagnostics(first->warnings, false);
        printDiagnostics(second->warnings, false);
        printDiagnostics(comparison->warnings, false);
    }
    // With the model, the ops the prediction costed with a figure measured on other work: the
    // trace names its target, whose figures decide that.
    std::optional<nlohmann::ordered_json> fallbacks;
    if (!args.model.empty()) {
        auto graph = loadModel(ModelArgs{.model = args.model, .quiet = args.quiet});
        if (!graph)
            return kExitBadInput;
        auto target = loadTarget(first->trace.target, args.quiet);
        if (!target)
            return kExitBadInput;
        fallbacks = fallbackOps(*graph, *target);
    }
    if (args.json) {
        nlohmann::ordered_json out = comparisonJson(*comparison);
        if (fallbacks)
            out["fallback_ops"] = *fallbacks;
        std::cout << out.dump(2) << "\n";
    } else {
        printTable(*comparison, first->trace, second->trace, args);
        if (fallbacks && !fallbacks->empty())
            std::cout << "note: ops costed with a fallback figure: " << fallbackList(*fallbacks)
                      << "\n";
        else if (fallbacks)
            std::cout << "every op was costed with its own figure\n";
    }
    return kExitOk;
}

} // namespace

void addCompareCommand(CLI::App& app, int& exitCode) {
    auto args = std::make_shared<CompareArgs>();
    CLI::App* cmd = app.add_subcommand("compare", "Compare an emulated timeline with a measured one, event by event");
    cmd->add_option("emulated", args->emulated, "The predicted trace (Strata trace JSON or CSV)")->required();
    cmd->add_option("measured", args->measured, "The measured trace of the same program (JSON or CSV)")->required();
    cmd->add_flag("--json", args->json, "Print one JSON object instead of text");
    cmd->add_flag("--force", args->force, "Compare traces of different models anyway");
    cmd->add_flag("-q,--quiet", args->quiet, "Do not print warnings");
    cmd->add_option("--model", args->model,
                    "The ONNX model both traces ran: list the ops predicted with a figure measured "
                    "on other work");
    cmd->callback([args, &exitCode] { exitCode = runCompare(*args); });
}

} // namespace strata::cli
