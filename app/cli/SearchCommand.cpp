#include "SearchCommand.h"

#include "ExitCodes.h"
#include "ModelArgs.h"
#include "TargetArg.h"
#include "TraceFigures.h"
#include "base/Units.h"
#include "schedule/ScheduleJson.h"
#include "schedule/Strategies.h"
#include "schedule/Validate.h"
#include "search/Measure.h"
#include "search/Search.h"

#include <cmath>
#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

namespace strata::cli {

namespace {

constexpr double kProgressSeconds = 5;

struct SearchArgs {
    ModelArgs model;
    std::string target;
    bool noCalibrate = false; // --no-calibrate
    std::string start;        // empty: every built-in strategy
    double budget = 30;
    std::string objective = "latency";
    std::string algorithm = "local";
    std::uint64_t seed = 1;
    std::int64_t maxCandidates = 0;
    int threads = 0;
    bool noReuse = false;
    bool slicedFusion = false;
    int measure = 0;
    int measureRuns = 5;
    std::string output;
    bool json = false;
};

// The search's start: a built-in strategy or a schedule file that validates; nullopt after
// printing why not.
std::optional<schedule::Schedule> loadStart(const std::string& start, const ir::Graph& graph,
                                            const target::Target& target) {
    if (auto strategy = schedule::parseStrategy(start))
        return schedule::makeSchedule(graph, target, *strategy);
    auto loaded = schedule::loadScheduleFile(start, graph);
    if (!loaded) {
        printDiagnostics(loaded.diagnostics());
        return std::nullopt;
    }
    const auto check = schedule::checkSchedule(*loaded, graph, target);
    if (!check.valid()) {
        std::cerr << "error: the start schedule '" << start << "' does not validate on "
                  << target.name << "\n";
        printDiagnostics(check.diagnostics);
        return std::nullopt;
    }
    return std::move(loaded).value();
}

nlohmann::ordered_json evaluationJson(const search::Evaluation& e) {
    return {{"emulated_ns", e.emulatedNs()},
            {"dram_bytes", e.dramBytes},
            {"sram_peak_bytes", e.sramPeakBytes}};
}

nlohmann::ordered_json resultJson(const search::SearchResult& r,
                                  const search::SearchOptions& options, const ir::Graph& graph,
                                  const std::optional<search::Candidate>& best,
                                  const std::vector<search::MeasuredCandidate>& measured,
                                  const std::optional<double>& bestMeasuredNs) {
    nlohmann::ordered_json baselines = nlohmann::ordered_json::array();
    for (const auto& b : r.baselines) {
        nlohmann::ordered_json j = {{"strategy", b.strategy}};
        if (b.evaluation)
            j.update(evaluationJson(*b.evaluation));
        else
            j.update({{"emulated_ns", nullptr}, {"dram_bytes", nullptr}, {"valid", false}});
        baselines.push_back(j);
    }
    nlohmann::ordered_json bestJson = nullptr;
    if (best) {
        bestJson = evaluationJson(best->evaluation);
        if (bestMeasuredNs)
            bestJson["measured_ns"] = *bestMeasuredNs;
    }
    nlohmann::ordered_json pareto = nlohmann::ordered_json::array();
    for (const auto& p : r.pareto) {
        nlohmann::ordered_json j = evaluationJson(p.evaluation);
        j["schedule"] = nlohmann::ordered_json::parse(schedule::scheduleToJson(p.schedule, graph));
        pareto.push_back(j);
    }
    nlohmann::ordered_json history = nlohmann::ordered_json::array();
    for (const auto& h : r.history)
        history.push_back(
            {{"seconds", h.seconds}, {"evaluated", h.evaluated}, {"best_ns", h.bestNs}});
    nlohmann::ordered_json j = {
        {"algorithm", std::string(search::algorithmName(options.algorithm))},
        {"objective", std::string(search::objectiveName(options.objective))},
        {"seed", options.seed},
        {"baseline", baselines},
        {"best", bestJson},
        {"evaluated", r.evaluated},
        {"invalid", r.invalid},
        {"left_out", r.leftOut},
        {"seconds", r.seconds},
        {"pareto", pareto},
        {"history", history}};
    if (!measured.empty()) {
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (const auto& m : measured) {
            nlohmann::ordered_json row = {{"strategy", m.candidate.schedule.strategy}};
            row.update(evaluationJson(m.candidate.evaluation));
            row["measured_ns"] = m.measuredNs;
            rows.push_back(row);
        }
        j["measured"] = rows;
    }
    return j;
}

std::string figures(const search::Evaluation& e) {
    return fmt::format("emulated {}, DRAM {}, SRAM peak {}", duration(e.emulatedPs),
                       formatBytes(e.dramBytes), formatBytes(e.sramPeakBytes));
}

void printText(const search::SearchResult& r, const search::SearchOptions& options,
               const ir::Graph& graph, const target::Target& target,
               const std::vector<search::MeasuredCandidate>& measured) {
    std::cout << fmt::format(
        "Searched '{}' on {} ({}, objective {}, seed {}): {} candidates in {:.1f} s ({:.1f}/s), "
        "{} invalid skipped, {} sliced fusions left out{}\n",
        graph.name, target.name, search::algorithmName(options.algorithm),
        search::objectiveName(options.objective), options.seed, r.evaluated, r.seconds,
        r.seconds > 0 ? double(r.evaluated) / r.seconds : 0.0, r.invalid, r.leftOut,
        r.cancelled ? " (cancelled)" : "");
    std::optional<search::Evaluation> bestBaseline;
    for (const auto& b : r.baselines) {
        std::cout << fmt::format("  start {:<10} {}\n", b.strategy,
                                 b.evaluation ? figures(*b.evaluation) : "does not validate");
        if (b.evaluation &&
            (!bestBaseline || search::better(options.objective, *b.evaluation, *bestBaseline)))
            bestBaseline = b.evaluation;
    }
    // The predicted best; with --measure, the kept one is marked among the measured below.
    const std::optional<search::Candidate>& best = r.best;
    if (!best)
        return;
    std::cout << fmt::format("  best  {:<10} {} ({} blocks)\n", "", figures(best->evaluation),
                             best->schedule.blocks.size());
    if (bestBaseline && bestBaseline->emulatedPs > 0)
        std::cout << fmt::format(
            "  predicted {:.1f}% faster than the best start\n",
            100.0 * (1.0 - double(best->evaluation.emulatedPs) / double(bestBaseline->emulatedPs)));
    std::cout << fmt::format("  Pareto front (latency vs DRAM bytes): {} points\n",
                             r.pareto.size());
    for (std::size_t i = 0; i < measured.size(); ++i) {
        const auto& m = measured[i];
        // The search's candidates by predicted rank; the best start by its strategy.
        const std::string label = m.candidate.schedule.strategy == "search"
                                      ? fmt::format("search #{}", i + 1)
                                      : m.candidate.schedule.strategy;
        std::cout << fmt::format("  measured {:<10} predicted {:>12}  measured {:>12}{}\n", label,
                                 duration(m.candidate.evaluation.emulatedPs),
                                 duration(std::llround(m.measuredNs * 1e3)),
                                 i == search::fastestMeasured(measured) ? "  (kept)" : "");
    }
}

int runSearch(const SearchArgs& args) {
    search::SearchOptions options;
    auto objective = search::parseObjective(args.objective);
    if (!objective) {
        std::cerr << "error: unknown objective '" << args.objective
                  << "' (latency, dram, pareto)\n";
        return kExitBadInput;
    }
    auto algorithm = search::parseAlgorithm(args.algorithm);
    if (!algorithm) {
        std::cerr << "error: unknown algorithm '" << args.algorithm << "' (local, evolution)\n";
        return kExitBadInput;
    }
    if (args.budget <= 0 && args.maxCandidates <= 0) {
        std::cerr << "error: give a --budget above 0 seconds or --max-candidates\n";
        return kExitBadInput;
    }
    auto graph = loadModel(args.model);
    if (!graph)
        return kExitBadInput;
    auto target = loadPredictionTarget(args.target, args.model.quiet, args.noCalibrate);
    if (!target)
        return kExitBadInput;
    // The runtime would run another target's program too, but the times would be this
    // computer's, not the target's.
    if (args.measure > 0 && target->name.rfind("host", 0) != 0) {
        std::cerr
            << "error: --measure runs the candidates on this computer; it needs --target host, not "
            << target->name << "\n";
        return kExitBadInput;
    }
    if (!args.start.empty()) {
        auto start = loadStart(args.start, *graph, *target);
        if (!start)
            return kExitBadInput;
        options.starts.push_back(std::move(*start));
    }
    options.objective = *objective;
    options.algorithm = *algorithm;
    options.seed = args.seed;
    options.budgetSeconds = args.budget;
    options.maxEvaluations = args.maxCandidates;
    options.threads = args.threads;
    options.reuse = !args.noReuse;
    options.space.slicedFusion = args.slicedFusion;
    options.keep = std::max(1, args.measure);

    // A line on stderr every few seconds, so a long budget is not silence.
    double reportedAt = 0;
    search::ProgressCallback progress;
    if (!args.json && !args.model.quiet)
        progress = [&reportedAt](const search::SearchProgress& p) {
            if (p.seconds - reportedAt < kProgressSeconds || !p.best)
                return;
            reportedAt = p.seconds;
            std::cerr << fmt::format("  {:.0f} s: {} candidates, best {}\n", p.seconds, p.evaluated,
                                     duration(p.best->emulatedPs));
        };
    search::SearchResult result = search::searchSchedules(*graph, *target, options, {}, progress);
    if (!result.best) {
        std::cerr << "error: no start schedule validates on " << target->name
                  << "; nothing to search from\n";
        return kExitFailed;
    }
    std::optional<search::Candidate> best = result.best;
    std::vector<search::MeasuredCandidate> measured;
    std::optional<double> bestMeasuredNs;
    if (args.measure > 0) {
        auto m = search::measureCandidates(*graph, *target,
                                           search::candidatesToMeasure(result, options.objective),
                                           args.measureRuns);
        if (!m) {
            printDiagnostics(m.diagnostics());
            return kExitFailed;
        }
        measured = std::move(*m);
        const std::size_t fastest = search::fastestMeasured(measured);
        best = measured[fastest].candidate;
        bestMeasuredNs = measured[fastest].measuredNs;
    }
    if (!args.output.empty()) {
        auto diags = schedule::saveScheduleFile(args.output, best->schedule, *graph);
        if (!diags.empty()) {
            printDiagnostics(diags);
            return kExitFailed;
        }
    }
    if (args.json) {
        std::cout << resultJson(result, options, *graph, best, measured, bestMeasuredNs).dump(2)
                  << "\n";
    } else {
        printText(result, options, *graph, *target, measured);
        if (!args.output.empty())
            std::cout << "wrote " << args.output << "\n";
    }
    return kExitOk;
}

} // namespace

void addSearchCommand(CLI::App& app, int& exitCode) {
    auto args = std::make_shared<SearchArgs>();
    CLI::App* cmd = app.add_subcommand(
        "search", "Search schedules (fusion, mp, tiles, buffering) the emulator predicts faster");
    addModelOptions(cmd, args->model);
    addTargetOption(cmd, args->target);
    addNoCalibrateOption(cmd, args->noCalibrate);
    cmd->add_option("--start", args->start,
                    "per-op, rules, fuse-max or a schedule file (default: all three strategies)");
    cmd->add_option("--budget", args->budget, "Seconds of search (wall clock)")
        ->capture_default_str();
    cmd->add_option("--objective", args->objective, "latency, dram or pareto")
        ->capture_default_str();
    cmd->add_option("--algorithm", args->algorithm,
                    "local (hill climbing with restarts) or evolution")
        ->capture_default_str();
    cmd->add_option("--seed", args->seed,
                    "Random seed; the same seed and --max-candidates give the same result")
        ->capture_default_str();
    cmd->add_option("--max-candidates", args->maxCandidates,
                    "Stop after this many candidates evaluated (0: no limit)")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--threads", args->threads, "Worker threads (0: one per hardware thread)")
        ->check(CLI::NonNegativeNumber);
    cmd->add_flag(
        "--no-reuse", args->noReuse,
        "Compile and emulate every candidate whole (no per-stretch reuse; same results, slower)");
    cmd->add_flag("--sliced-fusion", args->slicedFusion,
                  "Also try fusions that fit working memory only with a convolution's input "
                  "channels in slices (left out by default, as fuse-max leaves them out)");
    cmd->add_option("--measure", args->measure,
                    "Run the K best predicted on this machine and keep the measured fastest")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--measure-runs", args->measureRuns,
                    "Runs per measured candidate (alternating)")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    cmd->add_option("-o,--output", args->output, "Write the best schedule to this JSON file");
    cmd->add_flag("--json", args->json, "Print one JSON object instead of text");
    cmd->callback([args, &exitCode] { exitCode = runSearch(*args); });
}

} // namespace strata::cli
