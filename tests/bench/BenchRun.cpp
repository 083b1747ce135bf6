// strata_bench_run: measured host-run time per model and schedule strategy, with per-instruction
// timestamps on and off (the difference is the instrumentation's overhead). The time reported
// is the runtime's own total (workers ready to the last one done, manual time): setup, weight
// placement and output reads are not in it. Models as in BenchModels.h. Never a timed assertion.
//
//   run/MODEL/STRATEGY/timestamps   counters: instructions
//   run/MODEL/STRATEGY/totals-only
//   clock/steady_now                what one timestamp costs (two per instruction)

#include "BenchModels.h"
#include "compiler/Pipeline.h"
#include "model/OnnxImporter.h"
#include "reference/Evaluator.h"
#include "runtime/Runtime.h"
#include "schedule/Strategies.h"
#include "target/TargetLoader.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <string>

namespace {

using namespace strata;

struct Fixture {
    std::shared_ptr<const ir::Graph> graph;
    target::Target target;
    compiler::Program program;
    std::vector<reference::Tensor> inputs;
};

void benchRun(benchmark::State& state, const Fixture& f, bool timestamps) {
    runtime::RunOptions options;
    options.timestamps = timestamps;
    for (auto _ : state) {
        auto result = runtime::run(f.program, f.target, *f.graph, f.inputs, options);
        if (!result) {
            state.SkipWithError(result.diagnostics().front().toString().c_str());
            break;
        }
        state.SetIterationTime(result->totalsNs.front() * 1e-9);
    }
    state.counters["instructions"] = static_cast<double>(f.program.instructions.size());
}

void benchClock(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(std::chrono::steady_clock::now());
}
BENCHMARK(benchClock)->Name("clock/steady_now");

void registerAll() {
    static std::vector<std::unique_ptr<Fixture>> fixtures;
    auto target = target::resolveTarget("host");
    if (!target) return;
    for (const auto& path : bench::benchModels()) {
        auto model = model::importOnnxFile(path.string());
        if (!model) continue;
        for (auto strategy : {schedule::Strategy::PerOp, schedule::Strategy::Rules, schedule::Strategy::FuseMax}) {
            auto f = std::make_unique<Fixture>();
            f->graph = model->graph;
            f->target = *target;
            auto compiled = compiler::compile(*f->graph, f->target, schedule::makeSchedule(*f->graph, f->target, strategy));
            if (!compiled) continue;
            f->program = std::move(compiled->program);
            f->inputs = reference::sampleInputs(*f->graph, 7);
            const std::string name =
                "run/" + path.stem().string() + "/" + std::string(schedule::strategyName(strategy));
            const Fixture* fixture = f.get();
            fixtures.push_back(std::move(f));
            for (bool timestamps : {true, false})
                benchmark::RegisterBenchmark((name + (timestamps ? "/timestamps" : "/totals-only")).c_str(),
                                             [fixture, timestamps](benchmark::State& s) { benchRun(s, *fixture, timestamps); })
                    ->UseManualTime()
                    ->Unit(benchmark::kMillisecond);
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    registerAll();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
