#include "calibrate/Calibrate.h"

#include "calibrate/BenchPrograms.h"
#include "calibrate/CalibratedTarget.h"
#include "calibrate/ComputeFigures.h"
#include "calibrate/ComputeSamples.h"
#include "calibrate/ConcurrentSlowdownFit.h"
#include "calibrate/CorePace.h"
#include "calibrate/FitQuality.h"
#include "calibrate/InstructionGaps.h"
#include "calibrate/JoinSkew.h"
#include "calibrate/MachineSpeed.h"
#include "calibrate/OtherLoad.h"
#include "calibrate/Remeasure.h"
#include "calibrate/ReuseDistanceFit.h"
#include "calibrate/TransferKinds.h"
#include "calibrate/WarmWeightFit.h"
#include "emulator/Emulator.h"
#include "emulator/TransferRows.h"
#include "flow/Flow.h"
#include "reference/Evaluator.h"
#include "reference/Tensor.h"
#include "runtime/Runtime.h"
#include "schedule/Strategies.h"
#include "target/CalibratedHost.h"
#include "target/HostProbe.h"
#include "trace/AccuracyReport.h"
#include "trace/ConcurrentTransfers.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <fmt/format.h>
#include <map>
#include <span>

namespace strata::calibrate {
namespace {

// Strided copies of more rows than a tile's gather has (ResNet-50's largest: 1,792) are not
// measured: their boxes would span hundreds of MiB.
constexpr std::uint64_t kMaxRows = 4096;
// Main memory one program's transfers span, beyond which fewer transfers are measured.
constexpr std::uint64_t kMaxSpannedBytes = 64ull << 20;

// The op-class programs' scale run once more on one core (oneCoreWorkFactor).
constexpr int kOneCoreScale = 4;

// Compiled transfers of fewer sizes than this cannot pin latency and bandwidth down.
constexpr std::size_t kMinCompiledSizes = 4;

std::size_t distinctSizes(const std::vector<TransferSample>& samples) {
    std::vector<double> sizes;
    for (const TransferSample& s : samples)
        sizes.push_back(s.bytes);
    std::sort(sizes.begin(), sizes.end());
    return static_cast<std::size_t>(std::unique(sizes.begin(), sizes.end()) - sizes.begin());
}

// The seed of the compiled programs' inputs (their values change no time measured).
constexpr std::uint64_t kInputSeed = 11;

// The transfer programs of this size and more run in every other round only (three of six,
// spread over the calibration): each of their runs moves tens of MiB, and they took over 40% of
// a calibration's time. The figures fitted moved within their usual spread (docs/CALIBRATION.md,
// "Rounds and per-event medians"). Compiled programs run every round (but the far-weight ones):
// the computes' figures, the one-core factor most, are ratios of programs measured alike.
constexpr std::uint64_t kFewerRoundsBytes = 1u << 20;
constexpr int kMinRounds = 3;

// Rounds of a path's re-measure (Remeasure.h): enough for per-event medians, half a calibration's.
constexpr int kRemeasureRounds = 3;

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double cyclesOf(std::int64_t ps, double clockHz) {
    return double(ps) * 1e-12 * clockHz;
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

// One program calibration measures: compiled (or built) once, then run once per round, the
// rounds' traces kept until every round is done.
struct Measurement {
    std::string label;                      // the progress line
    std::shared_ptr<const ir::Graph> graph; // null for the bare transfer and barrier programs
    schedule::Schedule schedule;
    flow::Result compiled;  // a model's program, compiled and checked once
    compiler::Program bare; // else the program itself
    std::vector<reference::Tensor> inputs;
    std::vector<trace::Trace> rounds;
    std::string failure; // why it could not run (a compute class skipped)
    // What its transfers feed, for re-measuring a path (Remeasure.h): the isolated programs of
    // one path, or (feedsCompiled) a compiled program whose transfers join every path's samples.
    std::string path;
    bool feedsCompiled = false;
    double seconds = 0;    // its runs' wall time over the rounds
    int runs = 0;          // how many runs that was
    bool fewerRounds = false; // every other round only (kFewerRoundsBytes)
    double useSeconds = 0; // reading its timeline (sorting its reads by kind...)
    // A compiled program's barriers where two or more cores worked, from every round.
    std::vector<JoinSample> joins;
    // Reads the program's timeline: per event, its median duration over the rounds.
    std::function<void(const compiler::Program&, const trace::Trace&)> use;

    const compiler::Program& program() const { return graph ? compiled.program() : bare; }
};

class Calibration {
  public:
    Calibration(const target::Target& host, const CalibrateOptions& options)
        : m_host(host), m_options(options), m_rounds(options.quick ? 3 : 6) {}

    Expected<CalibrationReport> run() {
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
            p.contention = fitPathContention(slowdownSamples(p.path), p.fit.latencyCycles,
                                             p.fit.rowOverheadCycles, p.fit.bytesPerCycle,
                                             p.fit.rampBytes, p.fit.rampBytesPerCycle);
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
        fitJoinSkewBeyondEmulation();
        m_report.seconds = secondsSince(started);
        return std::move(m_report);
    }

  private:
    struct PathMeasurement {
        PathReport report;
        SharedBandwidthFit shared;
    };
    // A path's programs' samples, filled as their measurements are read.
    struct PathPlan {
        const target::TransferPath* path = nullptr;
        PathReport report;
        std::vector<TransferSample> alone;
        std::vector<TransferSample> resident; // alone's shapes re-read from the core's own cache
        std::vector<ContendedSample> contended;
    };

    void progress(const std::string& line) const {
        if (m_options.progress)
            m_options.progress(line);
    }

    std::vector<std::uint64_t> sizesUpTo(std::uint64_t limit) const {
        return transferSizes(limit, m_options.quick ? 16 : 4);
    }

    Measurement& add(std::string label) {
        m_measurements.push_back(std::make_unique<Measurement>());
        m_measurements.back()->label = std::move(label);
        return *m_measurements.back();
    }

    // A model compiled for the host, to be run on it (not emulated: the emulator's figures are
    // what is being measured).
    Measurement& addCompiled(std::string label, std::shared_ptr<const ir::Graph> graph,
                             schedule::Strategy strategy, int mp = 0) {
        Measurement& m = add(std::move(label));
        m.graph = std::move(graph);
        m.schedule = schedule::makeSchedule(*m.graph, m_host, strategy,
                                            {.mp = mp > 0 ? mp : m_host.cores()});
        m.compiled = flow::compile({*m.graph, m_host, m.schedule});
        if (!m.compiled.ok())
            m.failure = m.compiled.diagnostics.front().message;
        m.inputs = reference::sampleInputs(*m.graph, kInputSeed);
        return m;
    }

    // Every program once per round, `m_rounds` rounds, so a slow spell of the machine falls on
    // one round of many programs rather than on every repeat of one; each run is a warm-up pass
    // and a measured one (the faster kept), as `accuracy` measures. Then each program's events
    // are read at their medians over the rounds. A transfer program of MiBs (kFewerRoundsBytes)
    // runs in every other round only (of six or more).
    // Errors: a bare program that does not run (a compiled one is reported as skipped).
    // With `selected`, only those programs, `rounds` rounds: a path's re-measure (m_only set),
    // which reads nothing but that path's transfers.
    std::vector<Diagnostic>
    measureInRounds(const std::function<bool(const Measurement&)>& selected = {}, int rounds = 0) {
        static const ir::Graph kNoModel;
        const runtime::RunOptions once{
            .repeat = 2, .timestamps = true, .coldOutputs = true, .readOutputs = false};
        const bool all = !selected;
        if (rounds <= 0)
            rounds = m_rounds;
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
                auto result = m->graph ? flow::run(m->compiled, {*m->graph, m_host, m->schedule},
                                                   m->inputs, once)
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

    // Errors: a transfer program that cannot be built.
    std::vector<Diagnostic> planPath(const target::TransferPath& path, PathPlan& plan) {
        plan.path = &path;
        plan.report.path = path.name;
        std::uint64_t limit = m_options.maxBytes;
        for (const std::string& name : {path.source, path.destination})
            if (const target::MemorySpace* memory = m_host.findMemory(name);
                memory && memory->capacityBytes < limit) {
                limit = memory->capacityBytes;
                plan.report.sizeLimit =
                    fmt::format("{} holds {} bytes", memory->name, memory->capacityBytes);
            }
        const int maxCores = m_options.quick ? std::min(2, m_host.cores()) : m_host.cores();
        for (int cores = 1; cores <= maxCores; ++cores)
            for (std::uint64_t bytes : sizesUpTo(limit))
                for (std::uint64_t run : transferRunBytes(path, m_host.mainMemory)) {
                    if (run && (run * 2 > bytes || bytes / run > kMaxRows))
                        continue;
                    // Enough transfers to take a measurable time, few for the large sizes and
                    // the boxes spanning most main memory.
                    const std::uint64_t spanned =
                        std::max<std::uint64_t>(transferSpanBytes(bytes, run), 1ull << 20);
                    const std::uint64_t enough =
                        std::min<std::uint64_t>((8ull << 20) / bytes, kMaxSpannedBytes / spanned);
                    const int count = static_cast<int>(
                        std::clamp<std::uint64_t>(enough, 4, m_options.quick ? 16 : 64));
                    auto program = transferProgram(m_host, path.name, bytes, cores, count, run);
                    if (!program)
                        return program.diagnostics();
                    Measurement& m = add(fmt::format("transfers on '{}', {} core(s), {} bytes",
                                                     path.name, cores, bytes));
                    m.bare = std::move(*program);
                    m.path = path.name;
                    m.fewerRounds = bytes >= kFewerRoundsBytes;
                    plan.report.largestBytes = std::max(plan.report.largestBytes, bytes);
                    const double moved = double(transferBoxBytes(bytes, run)); // whole rows
                    m.use = [this, &plan, cores, moved](const compiler::Program& program,
                                                        const trace::Trace& timeline) {
                        std::vector<double> durations;
                        double rows = 1; // the same for every transfer of the program
                        for (const trace::Event& e : timeline.events) {
                            if (e.tile == kPrimingTile)
                                continue;
                            if (e.kind == trace::EventKind::Transfer)
                                rows = double(emulator::transferRows(
                                    std::get<compiler::Transfer>(program.instructions[e.id].body)));
                            if (e.kind == trace::EventKind::Transfer)
                                durations.push_back(cyclesOf(e.durationPs(), m_host.clockHz));
                            if (e.kind == trace::EventKind::Wait && m_only.empty())
                                m_waitCycles.push_back(cyclesOf(e.durationPs(), m_host.clockHz));
                        }
                        const double typical = median(durations);
                        if (cores == 1)
                            plan.alone.push_back({moved, typical, rows});
                        else
                            plan.contended.push_back({moved, cores, typical, rows});
                    };
                    if (cores == 1 && path.source == m_host.mainMemory) {
                        // The same shape again, each region moved by this core a moment before:
                        // rows in its own cache (resident_row_overhead_cycles). At most 16 of
                        // them: a median, each after its own priming copy.
                        auto warm = transferProgram(m_host, path.name, bytes, 1,
                                                    std::min(count, 16), run, Priming::OwnCore);
                        if (!warm)
                            return warm.diagnostics();
                        Measurement& w =
                            add(fmt::format("transfers on '{}' from the core's own cache, {} bytes",
                                            path.name, bytes));
                        w.bare = std::move(*warm);
                        w.path = path.name;
                        w.fewerRounds = bytes >= kFewerRoundsBytes;
                        w.use = [this, &plan, moved](const compiler::Program& program,
                                                     const trace::Trace& timeline) {
                            std::vector<double> durations;
                            double rows = 1;
                            for (const trace::Event& e : timeline.events)
                                if (e.tile != kPrimingTile &&
                                    e.kind == trace::EventKind::Transfer) {
                                    rows =
                                        double(emulator::transferRows(std::get<compiler::Transfer>(
                                            program.instructions[e.id].body)));
                                    durations.push_back(cyclesOf(e.durationPs(), m_host.clockHz));
                                }
                            plan.resident.push_back({moved, median(durations), rows});
                        };
                    }
                }
        return {};
    }

    Expected<PathMeasurement> fitPath(PathPlan& plan) {
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
                out.report.refused.push_back(
                    "compiled transfers (" + why +
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
        out.shared =
            fitSharedBandwidth(plan.contended, plan.alone, out.report.fit.latencyCycles,
                               out.report.fit.bytesPerCycle, out.report.fit.rowOverheadCycles,
                               out.report.fit.rampBytes, out.report.fit.rampBytesPerCycle);
        return out;
    }

    // Cached reads and stores by reuse distance past the private cache (ReuseDistanceFit.h), from
    // every such transfer of the compiled programs, against the kind's own figures; only where
    // those were written and the private cache is known.
    void fitReuseDistances(PathReport& report, const std::string& path) {
        for (const target::ReadKind kind :
             {target::ReadKind::Cached, target::ReadKind::CachedWrite}) {
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
    void fitWarmWeights(PathReport& report, const std::vector<TransferSample>& samples) {
        report.warmWeightData = samples;
        const auto& cold = report.kindFits[static_cast<std::size_t>(target::ReadKind::Weight)];
        if (!cold)
            return;
        if (const TransferFit fit = fitWarmWeightLatency(samples, *cold); fit.samples > 0)
            report.warmWeightFit = fit;
    }

    // The contention programs' shapes of `path`: its time alone against its time with the other
    // core on `otherPath` (default: the same path; each core's median one sample).
    std::vector<SlowdownSample> slowdownSamples(const std::string& path,
                                                std::string otherPath = {}) const {
        if (otherPath.empty())
            otherPath = path;
        std::vector<SlowdownSample> out;
        for (const PairedTransfers& alone : m_report.paired)
            if (alone.path == path && alone.otherPath.empty())
                for (const PairedTransfers& both : m_report.paired)
                    if (both.path == path && both.otherPath == otherPath &&
                        both.bytes == alone.bytes)
                        out.push_back({both.bytes, 1, alone.cycles, both.cycles, 2});
        return out;
    }

    // Per other path, the factor `report`'s transfers slow down by beside the other core's
    // (ConcurrentSlowdownFit.h), read against the path's fitted figures. Not beside its own path
    // when its contention resource already carries that (PathContention.h).
    void fitConcurrentSlowdowns(PathReport& report) const {
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

    // The contention programs: per path, transfers on one core with the other idle, then with
    // the other core on every path (its own too) at once; contiguous, a page to 1 MiB (two sizes
    // each side of kContentionSmallBytes / kContentionLargeBytes, within the working memory).
    // Errors: a program that cannot be built.
    std::vector<Diagnostic> planPairs(const std::deque<PathPlan>& plans) {
        if (m_host.cores() < 2)
            return {};
        std::vector<const target::TransferPath*> paths;
        for (const PathPlan& plan : plans)
            paths.push_back(plan.path);
        const std::uint64_t working = m_host.workingMemoryBytes();
        for (std::uint64_t bytes : {std::uint64_t(4096), std::uint64_t(65536),
                                    std::uint64_t(524288), std::uint64_t(1) << 20}) {
            if (bytes > working)
                continue;
            // Few of the large ones: a program's regions are fresh pages, faulted in on every run.
            const int count = bytes >= 524288 || m_options.quick ? 8 : 16;
            for (std::size_t a = 0; a < paths.size(); ++a)
                for (std::size_t b = a; b <= paths.size(); ++b) {
                    // b == paths.size(): path a alone on core 0.
                    std::vector<std::string> on{paths[a]->name};
                    if (b < paths.size())
                        on.push_back(paths[b]->name);
                    auto program = transferProgramOn(m_host, on, bytes, count);
                    if (!program)
                        return program.diagnostics();
                    Measurement& m =
                        add(fmt::format("contention: '{}' with '{}', {} bytes", on.front(),
                                        on.size() > 1 ? on.back() : "idle", bytes));
                    m.bare = std::move(*program);
                    m.use = [this, on, bytes](const compiler::Program& program,
                                              const trace::Trace& timeline) {
                        std::vector<std::vector<double>> perCore(on.size());
                        for (const trace::Event& e : timeline.events)
                            if (e.tile != kPrimingTile && e.kind == trace::EventKind::Transfer &&
                                program.instructions[e.id].core < static_cast<int>(on.size()))
                                perCore[static_cast<std::size_t>(program.instructions[e.id].core)]
                                    .push_back(cyclesOf(e.durationPs(), m_host.clockHz));
                        for (std::size_t c = 0; c < on.size(); ++c)
                            m_report.paired.push_back({on[c],
                                                       on.size() > 1 ? on[1 - c] : std::string(),
                                                       double(bytes), median(perCore[c])});
                    };
                }
        }
        return {};
    }

    void planBarriers() {
        Measurement& m = add("barriers");
        m.bare = barrierProgram(m_host, m_options.quick ? 20 : 200);
        m.use = [this](const compiler::Program& program, const trace::Trace& timeline) {
            // A barrier's cost is what the last core to arrive waits: the shortest of its events.
            std::map<std::int32_t, double> shortest;
            for (const trace::Event& e : timeline.events) {
                const auto& barrier = std::get<compiler::Barrier>(program.instructions[e.id].body);
                const double cycles = cyclesOf(e.durationPs(), m_host.clockHz);
                auto [it, fresh] = shortest.emplace(barrier.id, cycles);
                if (!fresh)
                    it->second = std::min(it->second, cycles);
            }
            std::vector<double> costs;
            for (const auto& [id, cycles] : shortest)
                costs.push_back(cycles);
            m_report.barrierCycles = median(costs);
        };
    }

    void planComputes() {
        const std::vector<int> scales =
            m_options.quick ? std::vector<int>{1, 2, 4} : std::vector<int>{1, 2, 4, 8};
        for (int scale : scales)
            for (const auto& graph : opClassGraphs(scale)) {
                // On every core, as most blocks run: the figures describe computes with every
                // core busy (cores sharing caches and memory slow each other down); the
                // one-core runs below price a block on one core.
                Measurement& m = addCompiled(graph->name + " x" + std::to_string(scale), graph,
                                             schedule::Strategy::PerOp);
                m.feedsCompiled = !computesOnly(*graph);
                m.use = [this, graph](const compiler::Program& program,
                                      const trace::Trace& timeline) {
                    readComputes(*graph, program, timeline);
                };
            }
        // The same ops on one core, the others idle, at one scale: how much faster a core runs
        // alone (oneCoreWorkFactor), as a block of one core in a model does.
        if (m_host.cores() > 1)
            for (const auto& graph : opClassGraphs(kOneCoreScale)) {
                Measurement& m =
                    addCompiled(graph->name + " on one core", graph, schedule::Strategy::PerOp, 1);
                m.feedsCompiled = false;
                m.use = [this, graph](const compiler::Program& program,
                                      const trace::Trace& timeline) {
                    readComputeSamples(*graph, program, timeline, m_oneCoreSamples);
                };
            }
        // Weights beyond the private cache: once, at their own sizes. Tens of MiB placed and
        // read per run (a tenth of a calibration's time when run every round), so every other
        // round, as the transfer programs of MiBs.
        for (const auto& graph : farWeightGraphs(m_host.privateCacheBytes, m_lastLevelBytes)) {
            Measurement& m = addCompiled(graph->name, graph, schedule::Strategy::PerOp);
            m.feedsCompiled = false;
            m.fewerRounds = true;
            m.use = [this, graph](const compiler::Program& program, const trace::Trace& timeline) {
                readComputes(*graph, program, timeline);
            };
            // The matrix-vector product again on one core, every round (16 MiB of weights on a
            // 2 MiB L2, less than the CNN chain's 19): its weight read out of main memory, the
            // other core idle, joins the weight-read fit's samples, past the chains' largest (4.5
            // MiB). Not the two cores' reads: those share main memory, a slowdown the emulator adds
            // itself (ConcurrentSlowdown.h).
            if (m_host.cores() > 1 && graph->name == kFarMatMulName) {
                Measurement& alone =
                    addCompiled(graph->name + " on one core", graph, schedule::Strategy::PerOp, 1);
                alone.feedsCompiled = true;
                alone.use = [this, graph](const compiler::Program& program,
                                          const trace::Trace& timeline) {
                    for (auto& [path, sample] : weightReads(*graph, program, timeline))
                        m_compiledTransfers[{path, target::ReadKind::Weight}].push_back(sample);
                };
            }
        }
    }

    // The run's transfers of the kinds `wanted` accepts, each with its reuse distance, into
    // `into` by path and kind.
    template <class Wanted>
    void keepTransfers(
        const ir::Graph& graph, const compiler::Program& program, const trace::Trace& timeline,
        std::map<std::pair<std::string, target::ReadKind>, std::vector<TransferSample>>& into,
        Wanted wanted) {
        const TransferKinds& classes = readKinds(program, graph);
        const std::vector<double> concurrent = trace::concurrentTransferShares(timeline);
        for (std::size_t i = 0; i < timeline.events.size(); ++i)
            if (const trace::Event& e = timeline.events[i]; e.kind == trace::EventKind::Transfer &&
                                                            keeps(timeline.pathName(e)) &&
                                                            wanted(classes.kinds[e.id]))
                into[{std::string(timeline.pathName(e)), classes.kinds[e.id]}].push_back(
                    transferSample(e, program.instructions[e.id], concurrent[i],
                                   classes.reuseBytes[e.id]));
    }

    // The target's join skew (JoinSkew.h): per compiled program on two or more cores, its measured
    // barriers' skews beyond those of its run emulated on the calibrated target (which already
    // shows work split unevenly), fitted over every program's.
    void fitJoinSkewBeyondEmulation() {
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

    void readComputes(const ir::Graph& graph, const compiler::Program& program,
                      const trace::Trace& timeline) {
        const TransferKinds& classes = readKinds(program, graph);
        const std::vector<target::ReadKind>& kinds = classes.kinds;
        const std::vector<double> concurrent = trace::concurrentTransferShares(timeline);
        for (std::size_t i = 0; i < timeline.events.size(); ++i) {
            const trace::Event& e = timeline.events[i];
            const compiler::Instruction& in = program.instructions[e.id];
            // Weight reads have their own figures, from planReadKinds: these single ops'
            // small weights stay in cache from one repeat to the next, a model's do not.
            if (e.kind == trace::EventKind::Transfer && !computesOnly(graph) &&
                kinds[e.id] != target::ReadKind::Weight && keeps(timeline.pathName(e)))
                m_compiledTransfers[{std::string(timeline.pathName(e)), kinds[e.id]}].push_back(
                    transferSample(e, in, concurrent[i], classes.reuseBytes[e.id]));
        }
        readComputeSamples(graph, program, timeline, m_computeSamples);
    }

    // The run's weight reads, each with its path.
    std::vector<std::pair<std::string, TransferSample>>
    weightReads(const ir::Graph& graph, const compiler::Program& program,
                const trace::Trace& timeline) {
        const TransferKinds& classes = readKinds(program, graph);
        const std::vector<double> concurrent = trace::concurrentTransferShares(timeline);
        std::vector<std::pair<std::string, TransferSample>> out;
        for (std::size_t i = 0; i < timeline.events.size(); ++i)
            if (const trace::Event& e = timeline.events[i];
                e.kind == trace::EventKind::Transfer && keeps(timeline.pathName(e)) &&
                classes.kinds[e.id] == target::ReadKind::Weight)
                out.emplace_back(timeline.pathName(e),
                                 transferSample(e, program.instructions[e.id], concurrent[i]));
        return out;
    }

    // Every compute of the run as a sample of the compute fit (none while re-measuring a path).
    void readComputeSamples(const ir::Graph& graph, const compiler::Program& program,
                            const trace::Trace& timeline, std::vector<ComputeSample>& out) const {
        if (!m_only.empty())
            return;
        for (const trace::Event& e : timeline.events) {
            if (e.kind != trace::EventKind::Compute)
                continue;
            const compiler::Instruction& in = program.instructions[e.id];
            const ir::Op& op = graph.op(in.from.op);
            const auto& compute = std::get<compiler::Compute>(in.body);
            if (compute.isReorder() || layoutSink(op))
                continue; // at the data_movement figure, not its op's; or not measured for itself
            out.push_back(computeSample(compute, op, graph, m_host.channelGranule,
                                        m_host.privateCacheBytes,
                                        cyclesOf(e.durationPs(), m_host.clockHz)));
        }
    }

    // Runs readKindGraphs as models run (the `rules` schedule on every core) and keeps their
    // transfers by path and kind of read: weights read as a model's are, activations a core stored
    // itself a layer ago.
    void planReadKinds() {
        // Without a last-level cache every model reads its weights cold: no warm figures.
        for (const auto& graph : m_lastLevelBytes > 0 ? warmWeightGraphs(m_lastLevelBytes)
                                                      : decltype(warmWeightGraphs(0)){}) {
            Measurement& m =
                addCompiled("warm weight reads: " + graph->name, graph, schedule::Strategy::Rules);
            m.feedsCompiled = true;
            m.use = [this, graph](const compiler::Program& program, const trace::Trace& timeline) {
                for (auto& [path, sample] : weightReads(*graph, program, timeline))
                    m_warmWeightTransfers[path].push_back(sample);
            };
        }
        for (const auto& graph : readKindGraphs()) {
            Measurement& m =
                addCompiled("reads by kind: " + graph->name, graph, schedule::Strategy::Rules);
            m.feedsCompiled = true;
            // One that cannot run is reported as no weight_reads figures for the path.
            m.use = [this, graph](const compiler::Program& program, const trace::Trace& timeline) {
                const TransferKinds& classes = readKinds(program, *graph);
                const std::vector<double> concurrent = trace::concurrentTransferShares(timeline);
                for (std::size_t i = 0; i < timeline.events.size(); ++i) {
                    const trace::Event& e = timeline.events[i];
                    const compiler::Instruction& in = program.instructions[e.id];
                    if (e.kind == trace::EventKind::Transfer && keeps(timeline.pathName(e)))
                        m_compiledTransfers[{std::string(timeline.pathName(e)),
                                             classes.kinds[e.id]}]
                            .push_back(
                                transferSample(e, in, concurrent[i], classes.reuseBytes[e.id]));
                }
            };
        }
        // Small reads of rows the other core stored, for the shared reads' latency alone: their
        // weights stay in cache from one repeat to the next, so only those reads are kept.
        for (const auto& graph : sharedReadGraphs()) {
            Measurement& m = addCompiled("reads of rows another core stored: " + graph->name, graph,
                                         schedule::Strategy::Rules);
            m.feedsCompiled = true;
            m.use = [this, graph](const compiler::Program& program, const trace::Trace& timeline) {
                keepTransfers(*graph, program, timeline, m_compiledTransfers,
                              [](target::ReadKind k) { return k == target::ReadKind::Shared; });
            };
        }
        // Cached reads and stores at reuse distances up to MiBs, for their rates by distance
        // alone (the figures above stay those of the chains).
        for (const auto& graph : reuseDistanceGraphs()) {
            Measurement& m = addCompiled("reads by reuse distance: " + graph->name, graph,
                                         schedule::Strategy::Rules);
            m.feedsCompiled = true;
            // Every other round: each bin's median is over dozens of transfers already.
            m.fewerRounds = true;
            m.use = [this, graph](const compiler::Program& program, const trace::Trace& timeline) {
                keepTransfers(*graph, program, timeline, m_reuseTransfers, [](target::ReadKind k) {
                    return k == target::ReadKind::Cached || k == target::ReadKind::CachedWrite;
                });
            };
        }
    }

    // What each instruction of `program` reads (TransferKinds.h), cached per program: a path's
    // re-measure reads the same programs again.
    const TransferKinds& readKinds(const compiler::Program& program, const ir::Graph& graph) {
        auto [it, fresh] = m_readKinds.try_emplace(&program);
        if (fresh)
            it->second = transferKindsOf(program, graph, m_host);
        return it->second;
    }

    // Whether a compiled program's transfer on `path` is read: always, but while re-measuring
    // another path.
    bool keeps(std::string_view path) const { return m_only.empty() || path == m_only; }

    // A path whose fit is poor (FitQuality.h) measured again: its isolated programs and every
    // compiled program whose transfers feed it, kRemeasureRounds rounds, as often and as long as
    // m_options.remeasure allows; the attempt that fits best is kept, and the report says so.
    // Errors: a bare program that no longer runs.
    Expected<PathMeasurement> remeasureIfPoor(PathPlan& plan, PathMeasurement first,
                                              std::chrono::steady_clock::time_point started) {
        const std::string& name = plan.path->name;
        const auto feeds = [&](const Measurement& m) { return m.path == name || m.feedsCompiled; };
        double retrySeconds = 0; // from their runs so far
        for (const auto& m : m_measurements)
            if (feeds(*m) && m->failure.empty())
                retrySeconds +=
                    m->seconds / std::max(m->runs, 1) * kRemeasureRounds + m->useSeconds;
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

    TransferSample transferSample(const trace::Event& e, const compiler::Instruction& in,
                                  double concurrent, double reuseBytes = 0) const {
        return {double(e.bytes), cyclesOf(e.durationPs(), m_host.clockHz),
                double(emulator::transferRows(std::get<compiler::Transfer>(in.body))), concurrent,
                reuseBytes};
    }

    const target::Target& m_host;
    const CalibrateOptions& m_options;
    int m_rounds;
    std::vector<CorePace> m_paces; // the cores' pace before each round
    std::optional<SpeedCheck> m_speedCheck;
    std::vector<SpeedTimes> m_speedChecks; // its times before each round
    CalibrationReport m_report;
    std::vector<std::unique_ptr<Measurement>> m_measurements; // in the order every round runs them
    std::vector<ComputeSample> m_computeSamples;
    std::vector<ComputeSample> m_oneCoreSamples; // the op-class programs on one core
    // The compiled programs' transfers by path and kind of read.
    std::map<std::pair<std::string, target::ReadKind>, std::vector<TransferSample>>
        m_compiledTransfers;
    // reuseDistanceGraphs' cached reads and stores by path and kind.
    std::map<std::pair<std::string, target::ReadKind>, std::vector<TransferSample>>
        m_reuseTransfers;
    // warmWeightGraphs' weight reads by path; the last-level cache they fit (0: none probed).
    std::map<std::string, std::vector<TransferSample>> m_warmWeightTransfers;
    std::uint64_t m_lastLevelBytes = target::probeHost().lastLevelBytes;
    std::vector<double> m_gapsNs;
    std::map<const compiler::Program*, TransferKinds> m_readKinds;
    std::string m_only; // while re-measuring a path: its name (only its transfers are read)
    std::vector<double> m_waitCycles;
    std::vector<double> m_contendedRms;
    std::size_t m_contendedSamples = 0;
};

} // namespace

Expected<CalibrationReport> calibrateHost(const target::Target& host,
                                          const CalibrateOptions& options) {
    if (host.clockHz <= 0)
        return error("target '" + host.name + "' has no clock to count cycles in");
    return Calibration(host, options).run();
}

} // namespace strata::calibrate
