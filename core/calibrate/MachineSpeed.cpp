#include "calibrate/MachineSpeed.h"

#include "calibrate/BenchPrograms.h"
#include "calibrate/Fit.h"
#include "reference/Evaluator.h"
#include "schedule/Strategies.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace strata::calibrate {
namespace {

// The op-class programs' scale the check runs: a 3x3 convolution of 128 channels on 28 x 28 and
// a 256 x 256 x 256 matrix product, about 130 million MACs, a millisecond or two per core count.
constexpr int kCheckScale = 4;
constexpr std::string_view kCheckGraphs[] = {"calibrate-conv", "calibrate-matmul"};
constexpr std::uint64_t kInputSeed = 5;

std::string coresText(int cores) {
    return cores == 1 ? "one core" : fmt::format("{} cores", cores);
}

} // namespace

Expected<SpeedCheck> SpeedCheck::prepare(const target::Target& host) {
    SpeedCheck out;
    out.m_host = std::make_shared<const target::Target>(host);
    std::vector<int> coreCounts{1};
    if (host.cores() > 1)
        coreCounts.push_back(host.cores());
    for (std::shared_ptr<const ir::Graph>& graph : opClassGraphs(kCheckScale)) {
        if (std::find(std::begin(kCheckGraphs), std::end(kCheckGraphs), graph->name) ==
            std::end(kCheckGraphs))
            continue;
        for (int cores : coreCounts) {
            auto check = std::make_shared<Check>();
            check->graph = graph;
            check->cores = cores;
            check->schedule = schedule::makeSchedule(*graph, *out.m_host, schedule::Strategy::Rules,
                                                     {.mp = cores});
            check->compiled = flow::compile({*graph, *out.m_host, check->schedule});
            if (!check->compiled.ok())
                return error("the speed check's '" + graph->name +
                             "' does not compile: " + check->compiled.diagnostics.front().message);
            check->inputs = reference::sampleInputs(*graph, kInputSeed);
            out.m_checks.push_back(std::move(check));
        }
    }
    if (out.m_checks.size() != std::size(kCheckGraphs) * coreCounts.size())
        return error("the speed check's programs are missing from calibration's op classes");
    return out;
}

Expected<SpeedTimes> SpeedCheck::measure() const {
    SpeedTimes out;
    for (const auto& check : m_checks) {
        auto result = flow::run(check->compiled, {*check->graph, *m_host, check->schedule},
                                check->inputs, {.repeat = 2, .timestamps = true});
        if (!result)
            return result.diagnostics();
        double ps = 0;
        for (const trace::Event& e : result->trace.events)
            if (e.kind == trace::EventKind::Compute)
                ps += double(e.durationPs());
        out[check->cores] += ps / 1e3;
    }
    return out;
}

SpeedTimes medianTimes(const std::vector<SpeedTimes>& checks) {
    std::map<int, std::vector<double>> byCores;
    for (const SpeedTimes& check : checks)
        for (const auto& [cores, ns] : check)
            byCores[cores].push_back(ns);
    SpeedTimes out;
    for (auto& [cores, times] : byCores)
        out[cores] = median(std::move(times));
    return out;
}

double speedRatio(const SpeedTimes& calibrated, const SpeedTimes& now, int cores) {
    // The entry on the most cores not above `cores`.
    auto at = [cores](const SpeedTimes& times) {
        auto it = times.upper_bound(cores);
        return it == times.begin() ? 0.0 : std::prev(it)->second;
    };
    const double before = at(calibrated), after = at(now);
    return before > 0 && after > 0 ? before / after : 0;
}

std::string speedText(const SpeedTimes& calibrated, const SpeedTimes& now) {
    std::string out;
    for (const auto& [cores, ns] : now)
        if (const double ratio = speedRatio(calibrated, now, cores); ratio > 0)
            out += fmt::format("{}{:.2f}x on {}", out.empty() ? "" : ", ", ratio, coresText(cores));
    return out.empty() ? "unknown" : out;
}

std::string speedChangeWarning(const SpeedTimes& calibrated, const SpeedTimes& now,
                               std::string_view when, std::string_view consequence) {
    bool changed = false;
    for (const auto& [cores, ns] : now)
        if (const double ratio = speedRatio(calibrated, now, cores);
            ratio > 0 && std::abs(ratio - 1) > kSpeedChange)
            changed = true;
    if (!changed)
        return {};
    return fmt::format("this machine ran computes at another speed than when it was calibrated "
                       "{}: {} its calibrated speed (its speed check, a convolution and a matrix "
                       "product, timed again); {}",
                       when, speedText(calibrated, now), consequence);
}

std::string unsteadySpeedWarning(const std::vector<SpeedTimes>& checks,
                                 std::string_view consequence) {
    std::map<int, std::vector<double>> byCores;
    for (const SpeedTimes& check : checks)
        for (const auto& [cores, ns] : check)
            if (ns > 0)
                byCores[cores].push_back(ns);
    std::string spans;
    bool unsteady = false;
    for (auto& [cores, times] : byCores) {
        std::sort(times.begin(), times.end());
        // Of five checks or more, the fastest and the slowest aside: one round caught by a
        // preemption (or by a quiet moment) moves the medians calibration keeps little.
        const std::size_t aside = times.size() >= kChecksForSpread ? 1 : 0;
        const double fastest = times[aside], slowest = times[times.size() - 1 - aside];
        unsteady = unsteady || slowest > (1 + kSpeedChange) * fastest;
        spans += fmt::format("{}{:.2f}-{:.2f} ms on {}", spans.empty() ? "" : ", ", fastest / 1e6,
                             slowest / 1e6, coresText(cores));
    }
    if (!unsteady)
        return {};
    return fmt::format("this machine's speed moved while calibration measured: its speed check (a "
                       "convolution and a matrix product) took {} over the rounds; {}",
                       spans, consequence);
}

} // namespace strata::calibrate
