#include "calibrate/Calibrate.h"

#include "calibrate/CalibratedTarget.h"
#include "calibrate/CalibrationRun.h"
#include "calibrate/ComputeFigures.h"
#include "calibrate/ConcurrentSlowdownFit.h"
#include "calibrate/FitQuality.h"
#include "calibrate/InstructionGaps.h"
#include "calibrate/MachineSpeed.h"
#include "calibrate/OtherLoad.h"
#include "calibrate/Remeasure.h"
#include "calibrate/ReuseDistanceFit.h"
#include "calibrate/WarmWeightFit.h"
#include "emulator/Emulator.h"
#include "runtime/Prepared.h"
#include "runtime/Runtime.h"
#include "target/CalibratedHost.h"
#include "trace/AccuracyReport.h"

#include <algorithm>
#include <fmt/format.h>

namespace strata::calibrate {
namespace {

// Compiled transfers of fewer sizes than this cannot pin latency and bandwidth down.
constexpr std::size_t kMinCompiledSizes = 4;

std::size_t distinctSizes(const std::vector<TransferSample>& samples) {
    std::vector<double> sizes;
    for (const TransferSample& s : samples)
        sizes.push_back(s.bytes);
    std::sort(sizes.begin(), sizes.end());
    return static_cast<std::size_t>(std::unique(sizes.begin(), sizes.end()) - sizes.begin());
}

// The rounds below which a calibration runs every program every round (Measurement::fewerRounds
// otherwise in every other round): medians of three at least.
constexpr int kMinRounds = 3;

// Rounds of a path's re-measure (Remeasure.h): enough for per-event medians, half a calibration's.
constexpr int kRemeasureRounds = 3;

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The shared resource every path of the target lists, if any.
std::string commonResource(const target::Target& target) {
    for (const target::SharedResource& r : target.resources) {
        bool everywhere = !target.paths.empty();
        for (const target::TransferPath& p : target.paths)
            everywhere = everywhere && std::find(p.resources.begin(), p.resources.end(), r.name) !=
                                           p.resources.end();
        if (everywhere)
            return r.name;
    }
    return {};
}

} // namespace

Expected<CalibrationReport> Calibration::run() {
    const auto started = std::chrono::steady_clock::now();
    m_report.cores = m_host.cores();
    // Computes first: their compiled programs' transfers (strided tile gathers with halos, at
    // the offsets a compiler chooses) join the paths' samples; then the model-like chains'
    // transfers, by kind of read.
    planComputes();
    planReadKinds();
    std::deque<PathPlan> paths; // the measurements' readers hold on to their path's plan
    for (const target::TransferPath& path : m_host.paths) {
        if (path.broadcast)
            continue;
        if (auto planned = planPath(path, paths.emplace_back()); !planned.empty())
            return planned;
    }
    if (paths.empty())
        return error("target '" + m_host.name + "' has no transfer path to calibrate");
    if (auto planned = planPairs(paths); !planned.empty())
        return planned;
    planBarriers();
    compileAll();
    if (auto check = SpeedCheck::prepare(m_host))
        m_speedCheck = std::move(*check);
    else
        m_report.warnings.push_back(check.diagnostics().front().message);
    const std::optional<CpuTicks> before = cpuTicksNow();
    if (auto measured = measureInRounds(); !measured.empty())
        return measured;
    if (const std::optional<CpuTicks> after = cpuTicksNow(); before && after)
        m_report.otherLoad = otherLoadShare(*before, *after);
    if (std::string busy = busyMachineWarning(
            m_report.otherLoad, "calibration",
            "the figures may be off. Re-run `strata-cli calibrate` on a quiet machine");
        !busy.empty())
        m_report.warnings.push_back(std::move(busy));
    if (!m_paces.empty()) {
        m_report.corePace = medianPace(m_paces);
        if (std::string uneven = unevenCoresWarning(
                *m_report.corePace, "calibration",
                "the figures, the two cores' ones most, may be off. Re-run `strata-cli "
                "calibrate` when the machine is quiet");
            !uneven.empty())
            m_report.warnings.push_back(std::move(uneven));
    }
    m_report.speedChecks = medianTimes(m_speedChecks);
    if (std::string unsteady = unsteadySpeedWarning(
            m_speedChecks, "the figures mix those speeds and may be off by as much. Re-run "
                           "`strata-cli calibrate` when the machine is steady");
        !unsteady.empty())
        m_report.warnings.push_back(std::move(unsteady));
    m_report.compute = fitCompute(m_computeSamples);
    m_report.oneCoreWorkFactor = fitOneCoreWorkFactor(m_report.compute, m_oneCoreSamples);
    m_report.oneCoreSamples = m_oneCoreSamples.size();
    // R per path; a path whose copies showed no slowdown of their bytes gives only a lower
    // bound (3x its own rate on two cores), which must not pull the other paths' R down: a
    // store path at 3.7 B/cycle set 11 B/cycle for a bus two-core loads of 6.5 each do not
    // slow down on. Only when no path saw a slowdown is R that bound, the largest.
    std::vector<double> pathShared, pathsAtCeiling;
    for (PathPlan& plan : paths) {
        auto fitted = fitPath(plan);
        if (!fitted)
            return fitted.takeDiagnostics();
        if (auto better = remeasureIfPoor(plan, std::move(*fitted), started); better)
            fitted = std::move(*better);
        else
            return better.takeDiagnostics();
        if (fitted->shared.samples && !fitted->shared.atCeiling)
            pathShared.push_back(fitted->shared.bytesPerCycle);
        else if (fitted->shared.samples)
            pathsAtCeiling.push_back(fitted->shared.bytesPerCycle);
        m_report.paths.push_back(std::move(fitted->report));
        m_contendedRms.push_back(fitted->shared.rmsRelativeError);
        m_contendedSamples += fitted->shared.samples;
    }
    for (const PathReport& p : m_report.paths)
        if (auto poor = poorFitWarning(p.path, p.fit.shapeRmsRelativeError))
            m_report.warnings.push_back(std::move(*poor));
    for (PathReport& p : m_report.paths)
        p.contention =
            fitPathContention(slowdownSamples(p.path), p.fit.latencyCycles, p.fit.rowOverheadCycles,
                              p.fit.bytesPerCycle, p.fit.rampBytes, p.fit.rampBytesPerCycle);
    for (PathReport& p : m_report.paths)
        fitConcurrentSlowdowns(p);
    m_report.sharedResource = commonResource(m_host);
    if (pathShared.empty() && !pathsAtCeiling.empty())
        pathShared.push_back(*std::max_element(pathsAtCeiling.begin(), pathsAtCeiling.end()));
    if (!pathShared.empty()) {
        m_report.shared.bytesPerCycle = median(pathShared);
        m_report.shared.rmsRelativeError = median(m_contendedRms);
        m_report.shared.samples = m_contendedSamples;
    }
    m_report.gapNs = median(m_gapsNs);
    m_report.waitCycles = median(m_waitCycles);
    m_report.target = calibratedTarget(m_host, m_report, m_lastLevelBytes);
    m_report.reorderFarByteCycles = fitReorderFarByteCycles(
        m_reorderSamples, m_report.target.overheads.computeCycles,
        m_report.target.throughput.of(ir::OpClass::DataMovement), double(m_host.privateCacheBytes));
    m_report.reorderSamples = m_reorderSamples.size();
    m_report.target.overheads.reorderFarByteCycles = m_report.reorderFarByteCycles;
    fitJoinSkewBeyondEmulation();
    m_report.seconds = secondsSince(started);
    return std::move(m_report);
}

// Main memory as large as the largest program's, and the scratch buffers, before the first run:
// each page is then faulted in once in the whole calibration, not again by every larger program.
void Calibration::reserveMemories() {
    static const ir::Graph kNoModel;
    std::uint64_t mainBytes = 1;
    for (const auto& m : m_measurements)
        if (m->failure.empty())
            mainBytes = std::max(
                mainBytes, runtime::mainMemoryBytes(m->program(), m->graph ? *m->graph : kNoModel));
    if (const target::MemorySpace* working = m_host.findMemory(m_host.workingMemory))
        m_memories.sizeFor(mainBytes, working->capacityBytes, m_host.cores());
}

// Every program once per round, `m_rounds` rounds, so a slow spell of the machine falls on
// one round of many programs rather than on every repeat of one; each run is a warm-up pass,
// then the caches churned and a measured pass. Then each program's events are read at their
// medians over the rounds. The transfer programs of a path, and the compiled programs marked
// so (Measurement::fewerRounds), run in every other round only (of six or more).
// Errors: a bare program that does not run (a compiled one is reported as skipped).
// With `selected`, only those programs, `rounds` rounds: a path's re-measure (m_only set),
// which reads nothing but that path's transfers.
std::vector<Diagnostic>
Calibration::measureInRounds(const std::function<bool(const Measurement&)>& selected, int rounds) {
    static const ir::Graph kNoModel;
    const runtime::RunOptions once{.repeat = 1,
                                   .warmUps = 1,
                                   .timestamps = true,
                                   .coldOutputs = true,
                                   .churn = &m_churn,
                                   .readOutputs = false,
                                   .memories = &m_memories};
    const bool all = !selected;
    if (rounds <= 0)
        rounds = m_rounds;
    reserveMemories();
    // Not in a quick calibration's or a re-measure's three rounds: medians of three at least.
    const bool fewer = all && rounds >= 2 * kMinRounds;
    for (int round = 0; round < rounds; ++round) {
        if (all && m_host.cores() > 1)
            if (auto pace = measureCorePace(m_host))
                m_paces.push_back(std::move(*pace));
        // The speed check before every round, as `accuracy` takes it before each of its.
        if (all && m_speedCheck)
            if (auto times = m_speedCheck->measure())
                m_speedChecks.push_back(std::move(*times));
        progress(fmt::format("{}round {} of {}: {} programs",
                             all ? "" : "re-measuring '" + m_only + "': ", round + 1, rounds,
                             m_measurements.size()));
        for (const auto& m : m_measurements) {
            if (!m->failure.empty() || (!all && !selected(*m)))
                continue;
            if (fewer && round % 2 == 1 && m->fewerRounds)
                continue;
            const auto start = std::chrono::steady_clock::now();
            auto result =
                m->graph ? flow::run(m->compiled, {*m->graph, m_host, m->schedule}, m->inputs, once)
                         : runtime::run(m->bare, m_host, kNoModel, {}, once);
            m->seconds += secondsSince(start);
            ++m->runs;
            if (!result) {
                if (!m->graph)
                    return result.diagnostics();
                m->failure = result.diagnostics().front().message;
                continue;
            }
            if (all)
                collectGaps(result->trace, m_gapsNs);
            if (all && m->graph)
                collectJoinSamples(m->program(), result->trace, m_host.clockHz, m->joins);
            m->rounds.push_back(std::move(result->trace));
        }
    }
    for (const auto& m : m_measurements) {
        if (!m->failure.empty()) {
            if (all)
                m_report.computeSkipped.push_back(m->label + ": " + m->failure);
            continue;
        }
        if (m->rounds.empty() || !m->use)
            continue;
        trace::Trace typical = m->rounds.front();
        const std::vector<double> medians = trace::medianDurationsPs(typical, m->rounds);
        for (std::size_t i = 0; i < typical.events.size(); ++i)
            typical.events[i].endPs = typical.events[i].startPs + std::llround(medians[i]);
        const auto start = std::chrono::steady_clock::now();
        m->use(m->program(), typical);
        m->useSeconds = secondsSince(start);
        m->rounds.clear();
    }
    return {};
}

Expected<Calibration::PathMeasurement> Calibration::fitPath(PathPlan& plan) {
    const target::TransferPath& path = *plan.path;
    PathMeasurement out;
    out.report = plan.report; // kept for a re-measure's fit
    const std::vector<TransferSample>& alone = plan.alone;
    // The row overhead from the programs above (strided and contiguous copies of the same sizes
    // differ by it alone); latency and bandwidth from the compiled programs' transfers when
    // they span enough sizes: those read tensors out of cache with both cores busy, as models
    // do, where the programs above copy warm regions one core at a time.
    const TransferFit isolated = fitTransfer(alone);
    std::string why;
    // Only the row overhead is sure to be kept from these (the compiled transfers' fit
    // replaces the rest), and nothing else measures it: said, but written all the same.
    if (isolated.rowOverheadRelativeError > kMaxFigureRelativeError)
        out.report.refused.push_back(
            fmt::format("row overhead uncertain by +-{:.0f}%: written all the same",
                        100 * isolated.rowOverheadRelativeError));
    const std::vector<TransferSample>& compiled =
        m_compiledTransfers[{path.name, target::ReadKind::Other}];
    out.report.compiledSamples = compiled.size();
    out.report.samples = alone;
    out.report.isolatedSamples = alone.size();
    out.report.samples.insert(out.report.samples.end(), compiled.begin(), compiled.end());
    out.report.fit = isolated;
    if (distinctSizes(compiled) >= kMinCompiledSizes) {
        const TransferFit real = fitTransferWithRamp(compiled, isolated.rowOverheadCycles);
        if (trustworthy(real, &why)) {
            out.report.fit = real;
            out.report.fit.rowOverheadRelativeError = isolated.rowOverheadRelativeError;
            if (const std::string unsure = uncertainFigures(real); !unsure.empty())
                out.report.refused.push_back("compiled transfers (" + unsure +
                                             "): written all the same");
        } else
            out.report.refused.push_back("compiled transfers (" + why +
                                         "): kept the isolated programs' latency and bandwidth");
        out.report.fit.samples = alone.size() + compiled.size();
    }
    if (out.report.fit.bytesPerCycle <= 0)
        return error("could not fit path '" + path.name +
                     "': transfer times do not grow with size");
    // Weight reads, cached reads and stores into cached lines from the compiled programs' own
    // transfers of that kind, with the row overhead known; a fit its samples do not pin down
    // is not written (the emulator then prices those transfers at the path's figures).
    for (const target::ReadKind kind : target::kOwnFigureKinds) {
        const std::vector<TransferSample>& samples = m_compiledTransfers[{path.name, kind}];
        out.report.kindSamples[static_cast<std::size_t>(kind)] = samples.size();
        out.report.kindData[static_cast<std::size_t>(kind)] = samples;
        if (distinctSizes(samples) < kMinCompiledSizes)
            continue;
        const TransferFit fit = fitTransferWithRamp(samples, isolated.rowOverheadCycles);
        const std::string name = kind == target::ReadKind::Weight   ? "weight reads"
                                 : kind == target::ReadKind::Cached ? "cached reads"
                                 : kind == target::ReadKind::Shared
                                     ? "reads of rows another core stored"
                                     : "stores into cached lines";
        if (trustworthy(fit, &why)) {
            out.report.kindFits[static_cast<std::size_t>(kind)] = fit;
            if (const std::string unsure = uncertainFigures(fit); !unsure.empty())
                out.report.refused.push_back(name + " (" + unsure + "): written all the same");
        } else if (fit.bytesPerCycle > 0)
            out.report.refused.push_back(
                name + " (" + why + "): not written, priced as the path's other " +
                (kind == target::ReadKind::CachedWrite ? "stores" : "reads"));
    }
    fitReuseDistances(out.report, path.name);
    fitWarmWeights(out.report, m_warmWeightTransfers[path.name]);
    // Rows already in the core's cache: the same fit over the re-read shapes, its row overhead.
    if (const TransferFit warm = fitTransfer(plan.resident);
        warm.bytesPerCycle > 0 && plan.resident.size() >= kMinCompiledSizes)
        out.report.residentRowOverheadCycles = warm.rowOverheadCycles;
    out.shared = fitSharedBandwidth(plan.contended, plan.alone, out.report.fit.latencyCycles,
                                    out.report.fit.bytesPerCycle, out.report.fit.rowOverheadCycles,
                                    out.report.fit.rampBytes, out.report.fit.rampBytesPerCycle);
    return out;
}

// Cached reads and stores by reuse distance past the private cache (ReuseDistanceFit.h), from
// every such transfer of the compiled programs, against the kind's own figures; only where
// those were written and the private cache is known.
void Calibration::fitReuseDistances(PathReport& report, const std::string& path) {
    for (const target::ReadKind kind : {target::ReadKind::Cached, target::ReadKind::CachedWrite}) {
        const auto k = static_cast<std::size_t>(kind);
        std::vector<TransferSample>& data = report.reuseData[k];
        data = m_compiledTransfers[{path, kind}];
        const std::vector<TransferSample>& skipChains = m_reuseTransfers[{path, kind}];
        data.insert(data.end(), skipChains.begin(), skipChains.end());
        report.byReuseDistance[k].clear();
        if (const auto& near = report.kindFits[k]; near && m_host.privateCacheBytes > 0)
            report.byReuseDistance[k] =
                fitReuseDistanceRates(data, *near, double(m_host.privateCacheBytes));
    }
}

// The weight reads of a model whose weights fit the last-level cache: their latency at the
// cold weight reads' bandwidth (WarmWeightFit.h); only where cold weight reads have figures.
void Calibration::fitWarmWeights(PathReport& report, const std::vector<TransferSample>& samples) {
    report.warmWeightData = samples;
    const auto& cold = report.kindFits[static_cast<std::size_t>(target::ReadKind::Weight)];
    if (!cold)
        return;
    if (const TransferFit fit = fitWarmWeightLatency(samples, *cold); fit.samples > 0)
        report.warmWeightFit = fit;
}

// The contention programs' shapes of `path`: its time alone against its time with the other
// core on `otherPath` (default: the same path; each core's median one sample).
std::vector<SlowdownSample> Calibration::slowdownSamples(const std::string& path,
                                                         std::string otherPath) const {
    if (otherPath.empty())
        otherPath = path;
    std::vector<SlowdownSample> out;
    for (const PairedTransfers& alone : m_report.paired)
        if (alone.path == path && alone.otherPath.empty())
            for (const PairedTransfers& both : m_report.paired)
                if (both.path == path && both.otherPath == otherPath && both.bytes == alone.bytes)
                    out.push_back({both.bytes, 1, alone.cycles, both.cycles, 2});
    return out;
}

// Per other path, the factor `report`'s transfers slow down by beside the other core's
// (ConcurrentSlowdownFit.h), read against the path's fitted figures. Not beside its own path
// when its contention resource already carries that (PathContention.h).
void Calibration::fitConcurrentSlowdowns(PathReport& report) const {
    target::TransferPath figures;
    figures.latencyCycles = report.fit.latencyCycles;
    figures.rowOverheadCycles = report.fit.rowOverheadCycles;
    figures.bytesPerCycle = report.fit.bytesPerCycle;
    figures.ramp = {report.fit.rampBytes, report.fit.rampBytesPerCycle, report.fit.spillBytes,
                    report.fit.spillBytesPerCycle};
    report.concurrentSlowdown.clear();
    for (const PathReport& other : m_report.paths) {
        if (other.path == report.path && report.contention.bytesPerCycle > 0)
            continue;
        const double factor =
            fitConcurrentSlowdown(slowdownSamples(report.path, other.path), figures);
        if (factor > 1)
            report.concurrentSlowdown[other.path] = factor;
    }
}

// The target's join skew (JoinSkew.h): per compiled program on two or more cores, its measured
// barriers' skews beyond those of its run emulated on the calibrated target (which already
// shows work split unevenly), fitted over every program's.
void Calibration::fitJoinSkewBeyondEmulation() {
    std::vector<JoinSample> excess;
    for (const auto& m : m_measurements) {
        if (m->joins.empty() || !m->graph || !m->failure.empty())
            continue;
        const auto emulated = emulator::emulate(m->program(), m_report.target, *m->graph);
        if (!emulated)
            continue;
        std::vector<JoinSample> predicted;
        collectJoinSamples(m->program(), *emulated, m_host.clockHz, predicted);
        appendExcessSkews(m->joins, predicted, excess);
    }
    m_report.joinSkew = fitJoinSkew(excess);
    m_report.joinSamples = excess.size();
    m_report.target.joinSkew = m_report.joinSkew;
}

// A path whose fit is poor (FitQuality.h) measured again: its isolated programs and every
// compiled program whose transfers feed it, kRemeasureRounds rounds, as often and as long as
// m_options.remeasure allows; the attempt that fits best is kept, and the report says so.
// Errors: a bare program that no longer runs.
Expected<Calibration::PathMeasurement>
Calibration::remeasureIfPoor(PathPlan& plan, PathMeasurement first,
                             std::chrono::steady_clock::time_point started) {
    const std::string& name = plan.path->name;
    const auto feeds = [&](const Measurement& m) { return m.path == name || m.feedsCompiled; };
    double retrySeconds = 0; // from their runs so far
    for (const auto& m : m_measurements)
        if (feeds(*m) && m->failure.empty())
            retrySeconds += m->seconds / std::max(m->runs, 1) * kRemeasureRounds + m->useSeconds;
    std::vector<PathMeasurement> attempts;
    attempts.push_back(std::move(first));
    std::vector<Diagnostic> failed;
    const RemeasureOutcome outcome = remeasureWhilePoor(
        name, attempts.front().report.fit.shapeRmsRelativeError, secondsSince(started),
        retrySeconds, m_options.remeasure, [&]() -> std::optional<double> {
            plan.alone.clear();
            plan.resident.clear();
            plan.contended.clear();
            std::erase_if(m_compiledTransfers,
                          [&](const auto& entry) { return entry.first.first == name; });
            std::erase_if(m_reuseTransfers,
                          [&](const auto& entry) { return entry.first.first == name; });
            m_warmWeightTransfers.erase(name);
            m_only = name;
            failed = measureInRounds(feeds, kRemeasureRounds);
            m_only.clear();
            if (!failed.empty())
                return std::nullopt;
            auto fitted = fitPath(plan);
            if (!fitted)
                return std::nullopt;
            attempts.push_back(std::move(*fitted));
            return attempts.back().report.fit.shapeRmsRelativeError;
        });
    if (!failed.empty())
        return failed;
    if (!outcome.note.empty())
        m_report.remeasured.push_back(outcome.note);
    return std::move(attempts[outcome.best]);
}

Expected<CalibrationReport> calibrateHost(const target::Target& host,
                                          const CalibrateOptions& options) {
    if (host.clockHz <= 0)
        return error("target '" + host.name + "' has no clock to count cycles in");
    return Calibration(host, options).run();
}

} // namespace strata::calibrate
