// strata_bench_emulate: emulation speed and trace memory (issue budgets: at least 5 M
// instructions/s; ResNet-50 with the rules schedule under 300 ms on mncore2 and host; after a
// one-block schedule edit, re-emulation under 100 ms; events at most 64 bytes, 10 M of them in
// memory). Models as in BenchModels.h. Never a timed assertion.
//
//   emulate/MODEL/TARGET      the compiled program (rules schedule); items = instructions
//   edit+emulate/MODEL/TARGET the program after halving one block's MP; counter compile_ms is
//                             the recompile the edit needs first (once, not timed by the loop)
//   split+compile+emulate/MODEL/TARGET  the same after splitting the middle fused block
//   edit+compile+emulate/MODEL/TARGET  what the GUI does after that edit: compile with the
//                             CompileCache the previous schedule's compile left, emulate, and
//                             summarise the trace; counters compile_ms, emulate_ms and
//                             summarize_ms split each iteration
//   summarize/MODEL/TARGET    the emulated trace's summary (blocks, paths, critical path)
//   emulate/synthetic/...     a generated 1 M-instruction program (8 cores, double-buffered)
//   trace/10M-events          summarising 10 M events; counters: bytes_per_event (RSS growth
//                             while holding them), sizeof_event

#include "BenchEdits.h"
#include "BenchModels.h"
#include "compiler/Pipeline.h"
#include "emulator/Emulator.h"
#include "model/OnnxImporter.h"
#include "schedule/Strategies.h"
#include "target/TargetLoader.h"
#include "trace/TraceSummary.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <unistd.h>

namespace {

using namespace strata;

struct Fixture {
    std::shared_ptr<const ir::Graph> graph;
    target::Target target;
    compiler::Program program;
    double compileMs = 0;
};

void benchEmulate(benchmark::State& state, const Fixture& f) {
    std::size_t events = 0;
    for (auto _ : state) {
        auto trace = emulator::emulate(f.program, f.target, *f.graph);
        if (!trace) {
            state.SkipWithError(trace.diagnostics().front().toString().c_str());
            break;
        }
        events = trace->events.size();
        benchmark::DoNotOptimize(trace);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * f.program.instructions.size()));
    state.counters["instructions"] = static_cast<double>(events);
    if (f.compileMs > 0) state.counters["compile_ms"] = f.compileMs;
}

struct EditFixture {
    std::shared_ptr<const ir::Graph> graph;
    target::Target target;
    schedule::Schedule before, after;
};

// Each iteration starts from a cache that only the schedule before the edit filled (not timed).
void benchEditCompileEmulate(benchmark::State& state, const EditFixture& f) {
    double compileMs = 0, emulateMs = 0, summarizeMs = 0;
    std::map<std::string, double> passMs;
    for (auto _ : state) {
        state.PauseTiming();
        compiler::CompileCache cache(*f.graph, f.target);
        compiler::CompileOptions options;
        options.cache = &cache;
        if (!compiler::compile(*f.graph, f.target, f.before, options)) {
            state.SkipWithError("the schedule before the edit does not compile");
            break;
        }
        state.ResumeTiming();
        const auto start = std::chrono::steady_clock::now();
        auto compiled = compiler::compile(*f.graph, f.target, f.after, options);
        const auto compiledAt = std::chrono::steady_clock::now();
        if (!compiled) {
            state.SkipWithError(compiled.diagnostics().front().toString().c_str());
            break;
        }
        auto trace = emulator::emulate(compiled->program, f.target, *f.graph);
        const auto end = std::chrono::steady_clock::now();
        if (!trace) {
            state.SkipWithError(trace.diagnostics().front().toString().c_str());
            break;
        }
        auto summary = trace::summarize(*trace);
        const auto summarizedAt = std::chrono::steady_clock::now();
        benchmark::DoNotOptimize(summary);
        for (const auto& pass : compiled->passes) passMs[pass.name] += pass.milliseconds;
        compileMs += std::chrono::duration<double, std::milli>(compiledAt - start).count();
        emulateMs += std::chrono::duration<double, std::milli>(end - compiledAt).count();
        summarizeMs += std::chrono::duration<double, std::milli>(summarizedAt - end).count();
    }
    const double n = std::max<double>(1, static_cast<double>(state.iterations()));
    state.counters["compile_ms"] = compileMs / n;
    state.counters["emulate_ms"] = emulateMs / n;
    state.counters["summarize_ms"] = summarizeMs / n;
    for (const auto& [name, ms] : passMs) state.counters[name + "_ms"] = ms / n;
}

void benchSummarize(benchmark::State& state, const Fixture& f) {
    auto trace = emulator::emulate(f.program, f.target, *f.graph);
    if (!trace) {
        state.SkipWithError(trace.diagnostics().front().toString().c_str());
        return;
    }
    for (auto _ : state) {
        auto summary = trace::summarize(*trace);
        benchmark::DoNotOptimize(summary);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * trace->events.size()));
}

// 8 cores, each loading, computing and storing 125,000 / 8 tiles, double buffered.
std::unique_ptr<Fixture> syntheticFixture(std::size_t instructions) {
    auto target = target::resolveTarget("mncore2");
    if (!target) return nullptr;
    auto graph = std::make_shared<ir::Graph>();
    ir::Value x;
    x.name = "x";
    x.dtype = ir::DType::Float32;
    x.shape = {1, 4096};
    graph->values.push_back(x);
    ir::Op relu;
    relu.name = "relu";
    relu.type = "Relu";
    relu.opClass = ir::OpClass::Elementwise;
    relu.outputs = {ir::ValueId(0)};
    graph->ops.push_back(relu);
    graph->finalize();

    auto f = std::make_unique<Fixture>(Fixture{graph, *target, {}});
    compiler::Program& p = f->program;
    p.cores = target->cores();
    p.streams.assign(static_cast<std::size_t>(p.cores), {});
    auto append = [&](int core, decltype(compiler::Instruction::body) body) {
        compiler::Instruction in;
        in.id = static_cast<compiler::InstrId>(p.instructions.size());
        in.core = core;
        in.from = {0, ir::OpId(0), 0};
        in.body = std::move(body);
        p.streams[static_cast<std::size_t>(core)].push_back(in.id);
        p.instructions.push_back(std::move(in));
    };
    auto transfer = [](const char* path, int tag) {
        compiler::Transfer t;
        t.path = path;
        t.bytes = 16384;
        t.tag = tag;
        return t;
    };
    compiler::Compute compute;
    compute.opType = "Relu";
    compute.outputs.push_back({ir::ValueId(0), {{0, 1}, {0, 4096}}, 0});
    const std::size_t tilesPerCore = instructions / (5 * static_cast<std::size_t>(p.cores));
    for (int core = 0; core < p.cores; ++core) {
        append(core, transfer("mvp", 0));
        for (std::size_t t = 0; t < tilesPerCore; ++t) {
            const int tag = static_cast<int>(t % 2);
            append(core, compiler::Wait{tag});
            if (t + 1 < tilesPerCore) append(core, transfer("mvp", 1 - tag));
            append(core, compute);
            append(core, transfer("mvp_store", 2 + tag));
            append(core, compiler::Wait{2 + tag});
        }
    }
    return f;
}

std::size_t residentBytes() {
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

// 10 M events copied from a real trace, summarised; memory measured while they are held.
void benchTenMillionEvents(benchmark::State& state, const Fixture& f) {
    auto source = emulator::emulate(f.program, f.target, *f.graph);
    if (!source || source->events.empty()) {
        state.SkipWithError("no source trace");
        return;
    }
    constexpr std::size_t kEvents = 10'000'000;
    const std::size_t before = residentBytes();
    trace::Trace big = *source;
    big.counters.clear();
    big.events.clear();
    big.events.reserve(kEvents);
    const std::int64_t span = source->endPs();
    for (std::size_t i = 0; big.events.size() < kEvents; ++i) {
        trace::Event e = source->events[i % source->events.size()];
        const auto round = static_cast<std::int64_t>(i / source->events.size());
        e.id = static_cast<std::uint32_t>(big.events.size());
        e.startPs += round * span;
        e.endPs += round * span;
        if (e.kind == trace::EventKind::Wait && e.link >= 0) e.link += static_cast<std::int32_t>(round * std::int64_t(source->events.size()));
        big.events.push_back(e);
    }
    const std::size_t held = residentBytes() - before;
    for (auto _ : state) {
        auto summary = trace::summarize(big);
        benchmark::DoNotOptimize(summary);
    }
    state.counters["bytes_per_event"] = double(held) / double(kEvents);
    state.counters["sizeof_event"] = sizeof(trace::Event);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kEvents));
}

} // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    static std::vector<std::unique_ptr<Fixture>> fixtures;
    static std::vector<std::unique_ptr<EditFixture>> edits;
    const Fixture* biggest = nullptr;
    for (const auto& path : bench::benchModels()) {
        auto imported = model::importOnnxFile(path.string());
        if (!imported) continue;
        for (const char* targetName : {"mncore2", "host", "mlu100"}) {
            auto target = target::resolveTarget(targetName);
            if (!target) continue;
            auto s = schedule::makeSchedule(*imported->graph, *target, schedule::Strategy::Rules);
            auto compiled = compiler::compile(*imported->graph, *target, s);
            if (!compiled) continue;
            const std::string name = path.filename().string() + "/" + targetName;
            fixtures.push_back(std::make_unique<Fixture>(Fixture{imported->graph, *target, std::move(compiled->program)}));
            if (!biggest || fixtures.back()->program.instructions.size() > biggest->program.instructions.size())
                biggest = fixtures.back().get();
            benchmark::RegisterBenchmark(("emulate/" + name).c_str(), benchEmulate, std::cref(*fixtures.back()))
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
            benchmark::RegisterBenchmark(("summarize/" + name).c_str(), benchSummarize, std::cref(*fixtures.back()))
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
            if (auto edited = bench::oneBlockEdit(s, *target)) {
                const auto start = std::chrono::steady_clock::now();
                auto recompiled = compiler::compile(*imported->graph, *target, *edited);
                const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
                if (!recompiled) continue;
                fixtures.push_back(std::make_unique<Fixture>(Fixture{imported->graph, *target, std::move(recompiled->program), ms}));
                benchmark::RegisterBenchmark(("edit+emulate/" + name).c_str(), benchEmulate, std::cref(*fixtures.back()))
                    ->Unit(benchmark::kMillisecond)
                    ->UseRealTime();
                edits.push_back(std::make_unique<EditFixture>(EditFixture{imported->graph, *target, s, *edited}));
                benchmark::RegisterBenchmark(("edit+compile+emulate/" + name).c_str(), benchEditCompileEmulate,
                                             std::cref(*edits.back()))
                    ->Unit(benchmark::kMillisecond)
                    ->UseRealTime();
            }
            // A split makes two blocks the cache has never seen: their tiles are chosen afresh.
            if (auto split = bench::splitMiddleBlock(s, *imported->graph)) {
                edits.push_back(std::make_unique<EditFixture>(EditFixture{imported->graph, *target, s, *split}));
                benchmark::RegisterBenchmark(("split+compile+emulate/" + name).c_str(), benchEditCompileEmulate,
                                             std::cref(*edits.back()))
                    ->Unit(benchmark::kMillisecond)
                    ->UseRealTime();
            }
        }
    }
    if (auto synthetic = syntheticFixture(1'000'000)) {
        fixtures.push_back(std::move(synthetic));
        benchmark::RegisterBenchmark("emulate/synthetic-1M/mncore2", benchEmulate, std::cref(*fixtures.back()))
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
    }
    if (biggest)
        benchmark::RegisterBenchmark("trace/10M-events", benchTenMillionEvents, std::cref(*biggest))
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime()
            ->Iterations(1);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
