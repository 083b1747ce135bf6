#include "AccuracyCommand.h"

#include "AccuracyEvents.h"
#include "ExitCodes.h"
#include "FallbackOps.h"
#include "ModelArgs.h"
#include "TargetArg.h"
#include "TraceFigures.h"
#include "analysis/EventGroups.h"
#include "calibrate/MachineSpeed.h"
#include "calibrate/OtherLoad.h"
#include "emulator/Emulator.h"
#include "flow/Flow.h"
#include "reference/Evaluator.h"
#include "schedule/Strategies.h"
#include "trace/AccuracyReport.h"
#include "trace/TraceSummary.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

namespace strata::cli {
namespace {

constexpr std::uint64_t kInputSeed = 7; // run's default inputs
constexpr std::size_t kWorstBlocks = 3; // blocks the text report lists per schedule

struct AccuracyArgs {
    std::vector<std::string> models;
    std::vector<std::string> inputShapes;
    std::string target = "host";
    bool noCalibrate = false; // --no-calibrate
    std::string strategies = "per-op,rules,fuse-max";
    std::string mps = "1,2";
    int repeat = 5;
    bool json = false;
    bool quiet = false;
    std::string events; // --events: a CSV of every matched event
};

struct Variant {
    std::string strategy;
    int mp = 1;
    std::string label() const { return fmt::format("{} mp{}", strategy, mp); }
};

// One schedule of one model: compiled, emulated, run.
struct Candidate {
    Variant variant;
    schedule::Schedule schedule;
    flow::Result predicted;
    trace::EventLabels labels;
    std::vector<trace::Trace> measured;
    std::optional<trace::AccuracyReport> report;
    std::string failure; // why this schedule has no report
    // The machine's compute speed on the schedule's cores against calibration's (0: unknown),
    // and the prediction with computes at that speed (calibrate/MachineSpeed.h).
    double speed = 0;
    double emulatedAtSpeedPs = 0;
};

// The prediction had the computes run at the machine's speed while measuring: emulated again
// with every compute's cycles over `speed`, transfers as calibrated (the machine's speed moves its
// computes, not main memory's bandwidth: docs/ACCURACY.md, "The machine's speed").
void emulateAtSpeed(Candidate& c, const ir::Graph& graph, const target::Target& target,
                    double speed) {
    if (speed <= 0 || !c.predicted.checked)
        return;
    auto trace = emulator::emulate(c.predicted.program(), *c.predicted.checked, target, graph,
                                   {.counters = false, .computeSpeed = speed});
    if (!trace)
        return;
    c.speed = speed;
    c.emulatedAtSpeedPs = double(trace::summarize(*trace).totalPs);
}

// The error of the prediction at the machine's speed; NaN when that is unknown.
double errorAtSpeed(const Candidate& c) {
    if (c.speed <= 0 || !c.report || c.report->measuredTotalPs <= 0)
        return std::nan("");
    return c.emulatedAtSpeedPs / c.report->measuredTotalPs - 1;
}

std::vector<std::string> splitList(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        if (!item.empty())
            out.push_back(item);
    return out;
}

std::optional<std::vector<Variant>> variantsOf(const AccuracyArgs& args, int cores) {
    std::vector<Variant> out;
    std::vector<int> mps;
    for (const std::string& text : splitList(args.mps)) {
        int mp = 0;
        try {
            mp = std::stoi(text);
        } catch (const std::exception&) {
        }
        if (mp < 1 || mp > cores) {
            std::cerr << fmt::format("error: --mp '{}': each must be a core count from 1 to {}\n",
                                     text, cores);
            return std::nullopt;
        }
        mps.push_back(mp);
    }
    for (const std::string& name : splitList(args.strategies)) {
        if (!schedule::parseStrategy(name)) {
            std::cerr << "error: unknown strategy '" << name << "' (per-op, rules, fuse-max)\n";
            return std::nullopt;
        }
        for (int mp : mps)
            out.push_back({name, mp});
    }
    if (out.empty())
        std::cerr << "error: --strategies and --mp name no schedule\n";
    if (out.empty())
        return std::nullopt;
    return out;
}

// The machine's load when the figures were taken: the other work sharing its cores.
std::optional<double> loadAverage() {
    std::ifstream in("/proc/loadavg");
    double load = 0;
    if (in >> load)
        return load;
    return std::nullopt;
}

nlohmann::ordered_json numberOrNull(double v) {
    return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json();
}

nlohmann::ordered_json kindTimesJson(const trace::KindTimes& t) {
    return {{"compute_ns", t.computePs / 1e3},
            {"transfer_ns", t.transferPs / 1e3},
            {"wait_ns", t.waitPs / 1e3},
            {"barrier_ns", t.barrierPs / 1e3}};
}

nlohmann::ordered_json groupsJson(const std::vector<trace::GroupAccuracy>& groups) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& g : groups)
        out.push_back({{"label", g.label},
                       {"events", g.events},
                       {"emulated_ns", g.emulatedPs / 1e3},
                       {"measured_ns", g.measuredPs / 1e3},
                       {"error", g.error},
                       {"median_abs_error", g.medianAbsError},
                       {"p90_abs_error", g.p90AbsError}});
    return out;
}

nlohmann::ordered_json reportJson(const Candidate& c) {
    nlohmann::ordered_json j = {{"strategy", c.variant.strategy}, {"mp", c.variant.mp}};
    if (!c.report) {
        j["failure"] = c.failure;
        return j;
    }
    const trace::AccuracyReport& r = *c.report;
    nlohmann::ordered_json totals = nlohmann::ordered_json::array();
    for (double t : r.measuredTotalsPs)
        totals.push_back(t / 1e3);
    nlohmann::ordered_json blocks = nlohmann::ordered_json::array();
    for (const auto& b : r.blocks)
        blocks.push_back({{"id", b.block},
                          {"emulated_ns", double(b.emulatedSpanPs) / 1e3},
                          {"measured_ns", b.measuredSpanPs / 1e3},
                          {"error", b.error},
                          {"emulated", kindTimesJson(b.emulated)},
                          {"measured", kindTimesJson(b.measured)}});
    j.update(
        {{"emulated_ns", double(r.emulatedTotalPs) / 1e3},
         {"measured_ns", r.measuredTotalPs / 1e3},
         {"error", r.totalError},
         {"speed", c.speed > 0 ? nlohmann::ordered_json(c.speed) : nlohmann::ordered_json()},
         {"emulated_at_speed_ns", c.speed > 0 ? nlohmann::ordered_json(c.emulatedAtSpeedPs / 1e3)
                                              : nlohmann::ordered_json()},
         {"error_at_speed", numberOrNull(errorAtSpeed(c))},
         {"spread", r.totalSpread},
         {"measured_totals_ns", totals},
         {"emulated_idle_share", r.emulatedIdleShare},
         {"measured_idle_share", r.measuredIdleShare},
         {"core_pace", r.corePace},
         {"transfers", r.transfers},
         {"transfer_median_abs_error", r.transferMedianAbsError},
         {"transfer_p90_abs_error", r.transferP90AbsError},
         {"computes", r.computes},
         {"compute_median_abs_error", r.computeMedianAbsError},
         {"compute_classes", groupsJson(r.computeGroups)},
         {"transfer_kinds", groupsJson(r.transferGroups)},
         {"blocks", blocks}});
    return j;
}

std::string percent(double v) {
    return fmt::format("{:+.1f}%", 100 * v);
}

std::string groupsLine(const std::vector<trace::GroupAccuracy>& groups) {
    std::string line;
    for (const auto& g : groups)
        line += fmt::format("{}{} {} (n {}, median |err| {:.0f}%)", line.empty() ? "" : ", ",
                            g.label, percent(g.error), g.events, 100 * g.medianAbsError);
    return line.empty() ? "none" : line;
}

std::string kindsText(const trace::KindTimes& t) {
    return fmt::format("compute {} transfer {} wait {} barrier {}",
                       duration(std::llround(t.computePs)), duration(std::llround(t.transferPs)),
                       duration(std::llround(t.waitPs)), duration(std::llround(t.barrierPs)));
}

void printModel(const std::string& path, const std::vector<Candidate>& candidates,
                const nlohmann::ordered_json& fallbacks, double rho, const std::string& machine) {
    std::cout << fmt::format("\nmodel {}\n", path);
    if (!machine.empty()) // what the machine did while it measured
        std::cout << machine << (machine.back() == '\n' ? "" : "\n");
    if (!fallbacks.empty())
        std::cout << "note: ops costed with a fallback figure: " << fallbackList(fallbacks) << "\n";
    std::cout << fmt::format("{:<16} {:>12} {:>12} {:>7} {:>8} {:>9} {:>9} {:>9} {:>9} {:>11}\n",
                             "schedule", "emulated", "measured", "spread", "error", "at speed",
                             "xfer med", "xfer p90", "comp med", "idle em/me");
    for (const Candidate& c : candidates) {
        if (!c.report) {
            std::cout << fmt::format("{:<16} failed: {}\n", c.variant.label(), c.failure);
            continue;
        }
        const trace::AccuracyReport& r = *c.report;
        const double atSpeed = errorAtSpeed(c);
        std::cout << fmt::format(
            "{:<16} {:>12} {:>12} {:>6.1f}% {:>8} {:>9} {:>8.1f}% {:>8.1f}% "
            "{:>8.1f}% {:>4.0f}%/{:>4.0f}%\n",
            c.variant.label(), duration(r.emulatedTotalPs),
            duration(std::llround(r.measuredTotalPs)), 100 * r.totalSpread, percent(r.totalError),
            std::isfinite(atSpeed) ? percent(atSpeed) : std::string("-"),
            100 * r.transferMedianAbsError, 100 * r.transferP90AbsError,
            100 * r.computeMedianAbsError, 100 * r.emulatedIdleShare, 100 * r.measuredIdleShare);
    }
    std::cout << (std::isfinite(rho)
                      ? fmt::format(
                            "Spearman rank correlation of emulated vs measured totals: {:.3f}\n",
                            rho)
                      : std::string("Spearman rank correlation: undefined (fewer than two "
                                    "schedules, or all tied)\n"));
    for (const Candidate& c : candidates) {
        if (!c.report)
            continue;
        const trace::AccuracyReport& r = *c.report;
        std::cout << fmt::format("  {}: compute by class: {}\n", c.variant.label(),
                                 groupsLine(r.computeGroups));
        std::cout << fmt::format("  {}: transfers by kind: {}\n", c.variant.label(),
                                 groupsLine(r.transferGroups));
        std::vector<trace::BlockAccuracy> worst = r.blocks;
        std::stable_sort(worst.begin(), worst.end(), [](const auto& a, const auto& b) {
            return std::abs(a.measuredSpanPs - double(a.emulatedSpanPs)) >
                   std::abs(b.measuredSpanPs - double(b.emulatedSpanPs));
        });
        for (std::size_t i = 0; i < std::min(worst.size(), kWorstBlocks); ++i)
            std::cout << fmt::format("    block {} {} ({} vs {}): predicted {}; measured {}\n",
                                     worst[i].block, percent(worst[i].error),
                                     duration(worst[i].emulatedSpanPs),
                                     duration(std::llround(worst[i].measuredSpanPs)),
                                     kindsText(worst[i].emulated), kindsText(worst[i].measured));
    }
}

// The cores' pace over a model's schedules on more than one core: the median of their
// trace::corePaceSpread (one schedule whose split the emulator misprices does not decide); none
// without such a schedule.
std::optional<double> modelCorePace(const std::vector<Candidate>& candidates) {
    std::vector<double> spreads;
    for (const Candidate& c : candidates)
        if (c.report && c.report->corePace.size() > 1)
            spreads.push_back(trace::corePaceSpread(c.report->corePace));
    if (spreads.empty())
        return std::nullopt;
    return trace::quantile(spreads, 0.5);
}

// A warning, ending with a newline, when other work took a large share of the CPUs while the
// model's runs were measured; empty otherwise.
std::string machineLines(std::optional<double> otherLoad) {
    const std::string busy = calibrate::busyMachineWarning(
        otherLoad, "this model's runs were",
        "the measured times, and the errors below, are likely slower than on a quiet machine: "
        "measure again when it is quiet");
    return busy.empty() ? std::string() : "warning: " + busy + "\n";
}

// A warning when the cores did not run at one pace; else a line saying they did.
std::string paceLine(std::optional<double> spread) {
    if (!spread)
        return {};
    if (*spread > trace::kUnevenCorePace)
        return fmt::format(
            "warning: the cores did not run at one pace: against the prediction, the slowest "
            "core took {:.2f}x the fastest's time for its share of the same schedules (median "
            "over the schedules on several cores), likely another program or virtual machine "
            "using its CPU; the measured times, and the errors below, include that slowdown: "
            "measure again when the machine is quiet",
            1 + *spread);
    return fmt::format("cores' pace: even (the slowest core {:.2f}x the fastest, against the "
                       "prediction)",
                       1 + *spread);
}

// The machine's speed while the model's runs were measured, against calibration's: a warning
// when it moved past kSpeedChange, else a line saying what it was; empty when unknown.
std::string speedLines(const calibrate::SpeedTimes& calibrated, const calibrate::SpeedTimes& now) {
    if (calibrated.empty() || now.empty())
        return {};
    const std::string warning = calibrate::speedChangeWarning(
        calibrated, now, "while this model's runs were measured",
        "the predictions are off by about as much for that alone ('at speed' is the error with "
        "the prediction scaled by it): recalibrate (`strata-cli calibrate`) for figures of the "
        "machine as it runs now");
    if (!warning.empty())
        return "warning: " + warning + "\n";
    return fmt::format("machine speed against calibration's: {}\n",
                       calibrate::speedText(calibrated, now));
}

// One model: every schedule compiled and emulated, then run `repeat` rounds, each round running
// every schedule once (so a slow spell of the machine falls on all of them), each run a warm-up
// pass and a measured one of the same prepared program (the faster of the two is kept).
nlohmann::ordered_json accuracyOfModel(const AccuracyArgs& args, const std::string& path,
                                       const target::Target& target,
                                       const std::vector<Variant>& variants,
                                       const calibrate::SpeedCheck* speedCheck, bool& ok,
                                       std::ostream* events) {
    nlohmann::ordered_json out = {{"model", path}};
    ModelArgs modelArgs{path, args.inputShapes, args.quiet};
    auto graph = loadModel(modelArgs);
    if (!graph) {
        ok = false;
        out["failure"] = "the model could not be imported";
        if (!args.json)
            std::cout << fmt::format("\nmodel {}: could not be imported (see above)\n", path);
        return out;
    }
    const std::vector<reference::Tensor> inputs = reference::sampleInputs(*graph, kInputSeed);
    std::vector<Candidate> candidates;
    for (const Variant& v : variants) {
        Candidate c;
        c.variant = v;
        c.schedule = schedule::makeSchedule(*graph, target, *schedule::parseStrategy(v.strategy),
                                            {.mp = v.mp});
        c.predicted = flow::predict({*graph, target, c.schedule});
        if (!c.predicted.ok())
            c.failure = std::string(flow::stageName(c.predicted.stage)) + ": " +
                        c.predicted.diagnostics.front().message;
        else
            c.labels = analysis::eventLabels(c.predicted.program(), target, *graph);
        candidates.push_back(std::move(c));
    }
    // Other work on the machine while the rounds ran (calibrate/OtherLoad.h): it slows the
    // measured runs of every schedule alike, which neither the spread nor the cores' pace shows.
    const std::optional<calibrate::CpuTicks> before = calibrate::cpuTicksNow();
    std::vector<calibrate::SpeedTimes> checks; // before every round, as calibration takes it
    for (int round = 0; round < args.repeat; ++round) {
        if (speedCheck)
            if (auto times = speedCheck->measure())
                checks.push_back(std::move(*times));
        for (Candidate& c : candidates) {
            if (!c.failure.empty())
                continue;
            auto result = flow::run(c.predicted, {*graph, target, c.schedule}, inputs,
                                    {.repeat = 2, .timestamps = true});
            if (!result) {
                c.failure = "run: " + result.diagnostics().front().message;
                continue;
            }
            c.measured.push_back(std::move(result->trace));
        }
    }
    const std::optional<calibrate::CpuTicks> after = calibrate::cpuTicksNow();
    const std::optional<double> otherLoad =
        before && after ? calibrate::otherLoadShare(*before, *after) : std::nullopt;
    std::vector<double> emulatedTotals, measuredTotals;
    for (Candidate& c : candidates) {
        if (!c.failure.empty()) {
            ok = false;
            continue;
        }
        auto report = trace::accuracyReport(*c.predicted.predicted, c.measured, c.labels);
        if (!report) {
            c.failure = "compare: " + report.diagnostics().front().message;
            ok = false;
            continue;
        }
        c.report = std::move(*report);
        if (events)
            writeEventsCsv(*events,
                           {std::filesystem::path(path).stem().string(), c.variant.strategy,
                            c.variant.mp, graph.get()},
                           c.predicted.program(), target, *c.predicted.predicted, *c.report,
                           c.labels);
        emulatedTotals.push_back(double(c.report->emulatedTotalPs));
        measuredTotals.push_back(c.report->measuredTotalPs);
    }
    const double rho = trace::spearman(emulatedTotals, measuredTotals);
    const nlohmann::ordered_json fallbacks = fallbackOps(*graph, target);
    const calibrate::SpeedTimes now = calibrate::medianTimes(checks);
    const calibrate::SpeedTimes calibrated =
        target.calibration ? target.calibration->speedChecks : calibrate::SpeedTimes{};
    const auto speedOn = [&](int mp) { return calibrate::speedRatio(calibrated, now, mp); };
    for (Candidate& c : candidates)
        if (c.report)
            emulateAtSpeed(c, *graph, target, speedOn(c.variant.mp));
    nlohmann::ordered_json schedules = nlohmann::ordered_json::array();
    for (const Candidate& c : candidates)
        schedules.push_back(reportJson(c));
    nlohmann::ordered_json speeds = nlohmann::ordered_json::array();
    for (const auto& [cores, ns] : now)
        if (calibrated.count(cores))
            speeds.push_back({{"cores", cores},
                              {"check_ns", ns},
                              {"calibrated_check_ns", calibrated.at(cores)},
                              {"ratio", speedOn(cores)}});
    const std::optional<double> pace = modelCorePace(candidates);
    out.update(
        {{"name", graph->name},
         {"fallback_ops", fallbacks},
         {"spearman", numberOrNull(rho)},
         {"core_pace_spread", pace ? nlohmann::ordered_json(*pace) : nlohmann::ordered_json()},
         {"uneven_cores", pace && *pace > trace::kUnevenCorePace},
         {"other_load", otherLoad ? nlohmann::ordered_json(*otherLoad) : nlohmann::ordered_json()},
         {"speed", speeds},
         {"schedules", schedules}});
    if (!args.json)
        printModel(path, candidates, fallbacks, rho,
                   machineLines(otherLoad) + speedLines(calibrated, now) + paceLine(pace));
    return out;
}

int runAccuracy(const AccuracyArgs& args) {
    if (args.repeat < 1) {
        std::cerr << "error: --repeat must be at least 1\n";
        return kExitBadInput;
    }
    auto target = loadPredictionTarget(args.target, args.quiet, args.noCalibrate);
    if (!target)
        return kExitBadInput;
    auto variants = variantsOf(args, target->cores());
    if (!variants)
        return kExitBadInput;
    const std::optional<double> load = loadAverage();
    if (!args.json)
        std::cout << fmt::format(
            "Accuracy of '{}' ({}) against this machine: {} schedules per model, {} repeats "
            "each{}\n",
            target->name,
            target->calibrated ? "calibrated" : "NOT calibrated: run `strata-cli calibrate`",
            variants->size(), args.repeat,
            load ? fmt::format(" (load average {:.2f} at the start)", *load) : std::string());
    std::ofstream events;
    if (!args.events.empty()) {
        events.open(args.events);
        if (!events) {
            std::cerr << fmt::format("error: --events: cannot write '{}'\n", args.events);
            return kExitBadInput;
        }
        writeEventsHeader(events);
    }
    // The machine's speed against calibration's, when calibration timed the same check.
    std::optional<calibrate::SpeedCheck> speedCheck;
    if (target->calibration && !target->calibration->speedChecks.empty()) {
        if (auto check = calibrate::SpeedCheck::prepare(*target))
            speedCheck = std::move(*check);
        else if (!args.quiet)
            std::cerr << "note: no speed check: " << check.diagnostics().front().message << "\n";
    } else if (!args.json && target->calibrated) {
        std::cout << "note: the calibration has no speed check (made before Strata took one): "
                     "the machine's speed against it is not known\n";
    }
    bool ok = true;
    nlohmann::ordered_json models = nlohmann::ordered_json::array();
    for (const std::string& path : args.models)
        models.push_back(accuracyOfModel(args, path, *target, *variants,
                                         speedCheck ? &*speedCheck : nullptr, ok,
                                         args.events.empty() ? nullptr : &events));
    if (args.json) {
        nlohmann::ordered_json j = {
            {"target", target->name}, {"calibrated", target->calibrated}, {"repeat", args.repeat}};
        if (load)
            j["load_average"] = *load;
        j["models"] = models;
        std::cout << j.dump(2) << "\n";
    }
    return ok ? kExitOk : kExitFailed;
}

} // namespace

void addAccuracyCommand(CLI::App& app, int& exitCode) {
    auto args = std::make_shared<AccuracyArgs>();
    CLI::App* cmd = app.add_subcommand(
        "accuracy", "How far the emulator's predictions are from runs on this machine, per "
                    "model and schedule");
    cmd->add_option("models", args->models, "ONNX model files")->required();
    cmd->add_option(
        "--input-shape", args->inputShapes,
        "Static shape for a graph input, e.g. image=1x3x224x224 (repeatable; every model)");
    cmd->add_option("-t,--target", args->target,
                    "The target predicted (host: this computer's calibrated target; a host-like "
                    ".json file); the "
                    "programs run on this computer")
        ->capture_default_str();
    addNoCalibrateOption(cmd, args->noCalibrate);
    cmd->add_option("--strategies", args->strategies, "Comma-separated strategies")
        ->capture_default_str();
    cmd->add_option("--mp", args->mps, "Comma-separated cores per block")->capture_default_str();
    cmd->add_option("--repeat", args->repeat,
                    "Measured runs per schedule (medians per event over them)")
        ->capture_default_str();
    cmd->add_flag("--json", args->json, "Print one JSON object instead of text");
    cmd->add_option("--events", args->events,
                    "Write every matched event, emulated beside measured, to this CSV file");
    cmd->add_flag("-q,--quiet", args->quiet, "Do not print import warnings");
    cmd->callback([args, &exitCode] { exitCode = runAccuracy(*args); });
}

} // namespace strata::cli
