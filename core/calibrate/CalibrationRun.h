#pragma once
// The host calibration's run (calibrate::calibrateHost): its programs planned
// (CalibrationPlans.cpp: transfer, contention and barrier programs, op-class and read-kind
// models), then run in rounds, read and fitted (Calibrate.cpp). Internal to core/calibrate.

#include "calibrate/BenchPrograms.h"
#include "calibrate/Calibrate.h"
#include "calibrate/ComputeSamples.h"
#include "calibrate/CorePace.h"
#include "calibrate/Fit.h"
#include "calibrate/JoinSkew.h"
#include "calibrate/MachineSpeed.h"
#include "calibrate/ReorderFit.h"
#include "calibrate/TransferKinds.h"
#include "compiler/Program.h"
#include "emulator/TransferRows.h"
#include "flow/Flow.h"
#include "ir/Graph.h"
#include "reference/Tensor.h"
#include "runtime/CacheChurn.h"
#include "runtime/Memory.h"
#include "schedule/Schedule.h"
#include "schedule/Strategies.h"
#include "target/HostProbe.h"
#include "target/Target.h"
#include "trace/Trace.h"

#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::calibrate {

inline double cyclesOf(std::int64_t ps, double clockHz) {
    return double(ps) * 1e-12 * clockHz;
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
    double seconds = 0;       // its runs' wall time over the rounds
    int runs = 0;             // how many runs that was
    bool fewerRounds = false; // every other round only (a path's transfer programs...)
    double useSeconds = 0;    // reading its timeline (sorting its reads by kind...)
    bool uncompiled = false;  // a model added, its program and inputs not made yet (compileAll)
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

    Expected<CalibrationReport> run();

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

    // A model to compile for the host (compileAll) and run on it (not emulated: the emulator's
    // figures are what is being measured).
    Measurement& addCompiled(std::string label, std::shared_ptr<const ir::Graph> graph,
                             schedule::Strategy strategy, int mp = 0);
    // Compiles the models added, and draws their inputs, several at once (one per core).
    void compileAll();
    // Buffers for every run (m_memories): main memory as large as the largest program's.
    void reserveMemories();

    // Every program once per round, `m_rounds` rounds, so a slow spell of the machine falls on
    // one round of many programs rather than on every repeat of one; each run is a warm-up pass,
    // then the caches churned and a measured pass. Then each program's events are read at their
    // medians over the rounds. The transfer programs of a path, and the compiled programs marked
    // so (Measurement::fewerRounds), run in every other round only (of six or more).
    // Errors: a bare program that does not run (a compiled one is reported as skipped).
    // With `selected`, only those programs, `rounds` rounds: a path's re-measure (m_only set),
    // which reads nothing but that path's transfers.
    std::vector<Diagnostic>
    measureInRounds(const std::function<bool(const Measurement&)>& selected = {}, int rounds = 0);

    // Errors: a transfer program that cannot be built.
    std::vector<Diagnostic> planPath(const target::TransferPath& path, PathPlan& plan);

    Expected<PathMeasurement> fitPath(PathPlan& plan);

    // Cached reads and stores by reuse distance past the private cache (ReuseDistanceFit.h), from
    // every such transfer of the compiled programs, against the kind's own figures; only where
    // those were written and the private cache is known.
    void fitReuseDistances(PathReport& report, const std::string& path);

    // The weight reads of a model whose weights fit the last-level cache: their latency at the
    // cold weight reads' bandwidth (WarmWeightFit.h); only where cold weight reads have figures.
    void fitWarmWeights(PathReport& report, const std::vector<TransferSample>& samples);

    // The contention programs' shapes of `path`: its time alone against its time with the other
    // core on `otherPath` (default: the same path; each core's median one sample).
    std::vector<SlowdownSample> slowdownSamples(const std::string& path,
                                                std::string otherPath = {}) const;

    // Per other path, the factor `report`'s transfers slow down by beside the other core's
    // (ConcurrentSlowdownFit.h), read against the path's fitted figures. Not beside its own path
    // when its contention resource already carries that (PathContention.h).
    void fitConcurrentSlowdowns(PathReport& report) const;

    // The contention programs: per path, transfers on one core with the other idle, then with
    // the other core on every path (its own too) at once; contiguous, a page to 1 MiB (two sizes
    // each side of kContentionSmallBytes / kContentionLargeBytes, within the working memory).
    // Errors: a program that cannot be built.
    std::vector<Diagnostic> planPairs(const std::deque<PathPlan>& plans);

    void planBarriers();

    void planComputes();

    // The run's transfers of the kinds `wanted` accepts, each with its reuse distance, into
    // `into` by path and kind.
    template <class Wanted>
    void keepTransfers(
        const ir::Graph& graph, const compiler::Program& program, const trace::Trace& timeline,
        std::map<std::pair<std::string, target::ReadKind>, std::vector<TransferSample>>& into,
        Wanted wanted);

    // The target's join skew (JoinSkew.h): per compiled program on two or more cores, its measured
    // barriers' skews beyond those of its run emulated on the calibrated target (which already
    // shows work split unevenly), fitted over every program's.
    void fitJoinSkewBeyondEmulation();

    void readComputes(const ir::Graph& graph, const compiler::Program& program,
                      const trace::Trace& timeline);

    // The run's reorders into m_reorderSamples (none while re-measuring a path).
    void keepReorders(const ir::Graph& graph, const compiler::Program& program,
                      const trace::Trace& timeline);

    // A reorder of the run as a sample of the reorder fit (ReorderFit.h).
    ReorderSample reorderSample(const compiler::Compute& reorder, const ir::Graph& graph,
                                const trace::Event& e) const;

    // The run's weight reads, each with its path.
    std::vector<std::pair<std::string, TransferSample>>
    weightReads(const ir::Graph& graph, const compiler::Program& program,
                const trace::Trace& timeline);

    // Every compute of the run as a sample of the compute fit (none while re-measuring a path).
    void readComputeSamples(const ir::Graph& graph, const compiler::Program& program,
                            const trace::Trace& timeline, std::vector<ComputeSample>& out) const;

    // Runs readKindGraphs as models run (the `rules` schedule on every core) and keeps their
    // transfers by path and kind of read: weights read as a model's are, activations a core stored
    // itself a layer ago.
    void planReadKinds();

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
                                              std::chrono::steady_clock::time_point started);

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
    std::vector<ReorderSample> m_reorderSamples; // every core busy, as m_computeSamples
    // The compiled programs' transfers by path and kind of read.
    std::map<std::pair<std::string, target::ReadKind>, std::vector<TransferSample>>
        m_compiledTransfers;
    // reuseDistanceGraphs' cached reads and stores by path and kind.
    std::map<std::pair<std::string, target::ReadKind>, std::vector<TransferSample>>
        m_reuseTransfers;
    // warmWeightGraphs' weight reads by path; the last-level cache they fit (0: none probed).
    std::map<std::string, std::vector<TransferSample>> m_warmWeightTransfers;
    std::uint64_t m_lastLevelBytes = target::probeHost().lastLevelBytes;
    // What every core writes before each pass (CacheChurn.h): as much as its caches hold.
    runtime::CacheChurn m_churn{m_host.workingMemoryBytes(), m_host.cores()};
    runtime::Memories m_memories; // every run's, kept (RunOptions::memories)
    std::vector<double> m_gapsNs;
    std::map<const compiler::Program*, TransferKinds> m_readKinds;
    std::string m_only; // while re-measuring a path: its name (only its transfers are read)
    std::vector<double> m_waitCycles;
    std::vector<double> m_contendedRms;
    std::size_t m_contendedSamples = 0;
};

} // namespace strata::calibrate
