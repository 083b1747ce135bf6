#include "calibrate/BenchPrograms.h"
#include "calibrate/CalibrationRun.h"
#include "emulator/TransferRows.h"
#include "reference/Evaluator.h"
#include "trace/ConcurrentTransfers.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <fmt/format.h>
#include <thread>

namespace strata::calibrate {
namespace {

// Strided copies of more rows than a tile's gather has (ResNet-50's largest: 1,792) are not
// measured: their boxes would span hundreds of MiB.
constexpr std::uint64_t kMaxRows = 4096;
// Main memory one program's transfers span, beyond which fewer transfers are measured.
constexpr std::uint64_t kMaxSpannedBytes = 64ull << 20;

// The op-class programs' scale run once more on one core (oneCoreWorkFactor).
constexpr int kOneCoreScale = 4;

// The seed of the compiled programs' inputs (their values change no time measured).
constexpr std::uint64_t kInputSeed = 11;

} // namespace

// A model to compile for the host and run on it (not emulated: the emulator's figures are what
// is being measured).
Measurement& Calibration::addCompiled(std::string label, std::shared_ptr<const ir::Graph> graph,
                                      schedule::Strategy strategy, int mp) {
    Measurement& m = add(std::move(label));
    m.graph = std::move(graph);
    m.schedule =
        schedule::makeSchedule(*m.graph, m_host, strategy, {.mp = mp > 0 ? mp : m_host.cores()});
    m.uncompiled = true; // compileAll
    return m;
}

// The compiled measurements' programs and inputs, on every core at once: one thread spent
// ~0.5 s of a calibration compiling ~200 small models and drawing their inputs.
void Calibration::compileAll() {
    std::vector<Measurement*> pending;
    for (const auto& m : m_measurements)
        if (m->uncompiled)
            pending.push_back(m.get());
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t i; (i = next.fetch_add(1)) < pending.size();) {
            Measurement& m = *pending[i];
            // On a helper thread an exception would end the process: it skips the model instead.
            try {
                m.compiled = flow::compile({*m.graph, m_host, m.schedule});
                if (!m.compiled.ok())
                    m.failure = m.compiled.diagnostics.front().message;
                m.inputs = reference::sampleInputs(*m.graph, kInputSeed);
            } catch (const std::exception& e) {
                m.failure = std::string("could not be compiled: ") + e.what();
            }
            m.uncompiled = false;
        }
    };
    std::vector<std::jthread> helpers;
    for (int i = 1; i < std::min<int>(m_host.cores(), int(pending.size())); ++i)
        helpers.emplace_back(work);
    work();
}

// A path's transfer programs, each at one size and row length, alone and on every core at once.
// They run in every other round only (three of six, spread over the calibration): a program's
// sample is the median of its 4-64 transfers' per-event medians, so three rounds already give
// it dozens of values, and these 150 programs took a quarter of a calibration's time in six.
// Before 2026-11-29 only those of 1 MiB and more (tens of MiB moved per run, over 40% of a
// calibration's time then). Compiled programs run every round (but the far-weight and
// reuse-distance ones): the computes' figures, the one-core factor most, are ratios of programs
// measured alike (docs/CALIBRATION.md, "Rounds and per-event medians").
// Errors: a transfer program that cannot be built.
std::vector<Diagnostic> Calibration::planPath(const target::TransferPath& path, PathPlan& plan) {
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
                m.fewerRounds = true;
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
                    auto warm = transferProgram(m_host, path.name, bytes, 1, std::min(count, 16),
                                                run, Priming::OwnCore);
                    if (!warm)
                        return warm.diagnostics();
                    Measurement& w = add(fmt::format(
                        "transfers on '{}' from the core's own cache, {} bytes", path.name, bytes));
                    w.bare = std::move(*warm);
                    w.path = path.name;
                    w.fewerRounds = true;
                    w.use = [this, &plan, moved](const compiler::Program& program,
                                                 const trace::Trace& timeline) {
                        std::vector<double> durations;
                        double rows = 1;
                        for (const trace::Event& e : timeline.events)
                            if (e.tile != kPrimingTile && e.kind == trace::EventKind::Transfer) {
                                rows = double(emulator::transferRows(
                                    std::get<compiler::Transfer>(program.instructions[e.id].body)));
                                durations.push_back(cyclesOf(e.durationPs(), m_host.clockHz));
                            }
                        plan.resident.push_back({moved, median(durations), rows});
                    };
                }
            }
    return {};
}

// The contention programs: per path, transfers on one core with the other idle, then with
// the other core on every path (its own too) at once; contiguous, a page to 1 MiB (two sizes
// each side of kContentionSmallBytes / kContentionLargeBytes, within the working memory).
// Errors: a program that cannot be built.
std::vector<Diagnostic> Calibration::planPairs(const std::deque<PathPlan>& plans) {
    if (m_host.cores() < 2)
        return {};
    std::vector<const target::TransferPath*> paths;
    for (const PathPlan& plan : plans)
        paths.push_back(plan.path);
    const std::uint64_t working = m_host.workingMemoryBytes();
    for (std::uint64_t bytes : {std::uint64_t(4096), std::uint64_t(65536), std::uint64_t(524288),
                                std::uint64_t(1) << 20}) {
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
                Measurement& m = add(fmt::format("contention: '{}' with '{}', {} bytes", on.front(),
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
                        m_report.paired.push_back({on[c], on.size() > 1 ? on[1 - c] : std::string(),
                                                   double(bytes), median(perCore[c])});
                };
            }
    }
    return {};
}

void Calibration::planBarriers() {
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

void Calibration::planComputes() {
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
            m.use = [this, graph](const compiler::Program& program, const trace::Trace& timeline) {
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
            m.use = [this, graph](const compiler::Program& program, const trace::Trace& timeline) {
                readComputeSamples(*graph, program, timeline, m_oneCoreSamples);
            };
        }
    // Reorders past the private cache (ReorderFit.h), their reorders alone: the convolutions'
    // own times stay out of the compute fit, whose staircase they would tilt.
    for (const auto& graph : reorderGraphs()) {
        Measurement& m = addCompiled(graph->name, graph, schedule::Strategy::PerOp);
        m.feedsCompiled = false;
        m.use = [this, graph](const compiler::Program& program, const trace::Trace& timeline) {
            keepReorders(*graph, program, timeline);
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
void Calibration::keepTransfers(
    const ir::Graph& graph, const compiler::Program& program, const trace::Trace& timeline,
    std::map<std::pair<std::string, target::ReadKind>, std::vector<TransferSample>>& into,
    Wanted wanted) {
    const TransferKinds& classes = readKinds(program, graph);
    const std::vector<double> concurrent = trace::concurrentTransferShares(timeline);
    for (std::size_t i = 0; i < timeline.events.size(); ++i)
        if (const trace::Event& e = timeline.events[i]; e.kind == trace::EventKind::Transfer &&
                                                        keeps(timeline.pathName(e)) &&
                                                        wanted(classes.kinds[e.id]))
            into[{std::string(timeline.pathName(e)), classes.kinds[e.id]}].push_back(transferSample(
                e, program.instructions[e.id], concurrent[i], classes.reuseBytes[e.id]));
}

void Calibration::readComputes(const ir::Graph& graph, const compiler::Program& program,
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
    keepReorders(graph, program, timeline);
}

void Calibration::keepReorders(const ir::Graph& graph, const compiler::Program& program,
                               const trace::Trace& timeline) {
    if (!m_only.empty())
        return;
    for (const trace::Event& e : timeline.events)
        if (const auto* c = std::get_if<compiler::Compute>(&program.instructions[e.id].body);
            c && e.kind == trace::EventKind::Compute && c->isReorder())
            m_reorderSamples.push_back(reorderSample(*c, graph, e));
}

ReorderSample Calibration::reorderSample(const compiler::Compute& reorder, const ir::Graph& graph,
                                         const trace::Event& e) const {
    ReorderSample out;
    for (const auto* operands : {&reorder.inputs, &reorder.outputs})
        for (const compiler::Operand& o : *operands)
            if (o.value.valid() && o.value.index < graph.values.size()) {
                out.boxBytes += double(tiling::regionBytes(o.region, graph.value(o.value).dtype));
                if (operands == &reorder.outputs)
                    out.elements += double(tiling::regionElements(o.region));
            }
    out.cycles = cyclesOf(e.durationPs(), m_host.clockHz);
    return out;
}

// The run's weight reads, each with its path.
std::vector<std::pair<std::string, TransferSample>>
Calibration::weightReads(const ir::Graph& graph, const compiler::Program& program,
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
void Calibration::readComputeSamples(const ir::Graph& graph, const compiler::Program& program,
                                     const trace::Trace& timeline,
                                     std::vector<ComputeSample>& out) const {
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
void Calibration::planReadKinds() {
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
                    m_compiledTransfers[{std::string(timeline.pathName(e)), classes.kinds[e.id]}]
                        .push_back(transferSample(e, in, concurrent[i], classes.reuseBytes[e.id]));
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

} // namespace strata::calibrate
