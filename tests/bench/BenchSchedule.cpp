// strata_bench_schedule: how long the schedule work the GUI does live takes, per model and
// target (the budgets: validate + analyse a 13,000-node schedule under 200 ms; one edit
// plus re-validation on ResNet-50 under 10 ms). Also times each strategy. Models as in
// BenchModels.h. Never a timed assertion.

#include "BenchModels.h"
#include "model/OnnxImporter.h"
#include "schedule/Edits.h"
#include "schedule/Strategies.h"
#include "schedule/Validate.h"
#include "target/TargetLoader.h"

#include <benchmark/benchmark.h>

#include <memory>
#include <string>

namespace {

using namespace strata;

struct Fixture {
    std::shared_ptr<const ir::Graph> graph;
    target::Target target;
};

void benchValidate(benchmark::State& state, const Fixture& f, schedule::Strategy strategy) {
    schedule::Schedule s = schedule::makeSchedule(*f.graph, f.target, strategy);
    for (auto _ : state) {
        auto check = schedule::checkSchedule(s, *f.graph, f.target);
        if (!check.valid()) {
            state.SkipWithError(check.diagnostics.front().toString().c_str());
            break;
        }
        benchmark::DoNotOptimize(check);
    }
    state.counters["blocks"] = static_cast<double>(s.blocks.size());
    state.counters["ops"] = static_cast<double>(f.graph->ops.size());
}

// The GUI's drag: move the first op of a block into the block before it, then validate the whole
// schedule again, with the analysis cache the GUI keeps for its model and target.
void benchEdit(benchmark::State& state, const Fixture& f) {
    schedule::Schedule s = schedule::makeSchedule(*f.graph, f.target, schedule::Strategy::Rules);
    schedule::AnalysisCache warm(*f.graph, f.target);
    schedule::checkSchedule(s, *f.graph, f.target, &warm); // the schedule on screen before the drag
    std::size_t b = 1;
    double applied = 0;
    for (auto _ : state) {
        // Every iteration starts from the warm cache, so the edited blocks are new to it.
        state.PauseTiming();
        schedule::AnalysisCache cache = warm;
        state.ResumeTiming();
        b = b % (s.blocks.size() - 1) + 1;
        const schedule::Block& block = s.blocks[b];
        auto edited = schedule::moveOp(s, *f.graph, block.ops.front(), s.blocks[b - 1].id);
        if (!edited) continue; // not every boundary can move; the attempt is timed too
        auto check = schedule::checkSchedule(*edited, *f.graph, f.target, &cache);
        applied += 1;
        benchmark::DoNotOptimize(check);
    }
    state.counters["applied"] = benchmark::Counter(applied, benchmark::Counter::kAvgIterations);
}

void benchStrategy(benchmark::State& state, const Fixture& f, schedule::Strategy strategy) {
    for (auto _ : state) benchmark::DoNotOptimize(schedule::makeSchedule(*f.graph, f.target, strategy));
}

} // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    static std::vector<std::unique_ptr<Fixture>> fixtures;
    for (const auto& path : bench::benchModels()) {
        auto imported = model::importOnnxFile(path.string());
        if (!imported) continue;
        for (const char* targetName : {"mncore2", "host"}) {
            auto target = target::resolveTarget(targetName);
            if (!target) continue;
            fixtures.push_back(std::make_unique<Fixture>(Fixture{imported->graph, *target}));
            const Fixture& f = *fixtures.back();
            const std::string suffix = path.filename().string() + "/" + targetName;
            for (auto s : {schedule::Strategy::PerOp, schedule::Strategy::FuseMax}) {
                std::string name = "validate/" + std::string(schedule::strategyName(s)) + "/" + suffix;
                benchmark::RegisterBenchmark(name.c_str(), benchValidate, std::cref(f), s)
                    ->Unit(benchmark::kMillisecond);
            }
            benchmark::RegisterBenchmark(("edit+validate/" + suffix).c_str(), benchEdit, std::cref(f))
                ->Unit(benchmark::kMillisecond);
            for (auto s : {schedule::Strategy::PerOp, schedule::Strategy::Rules, schedule::Strategy::FuseMax}) {
                std::string name = "strategy/" + std::string(schedule::strategyName(s)) + "/" + suffix;
                benchmark::RegisterBenchmark(name.c_str(), benchStrategy, std::cref(f), s)
                    ->Unit(benchmark::kMillisecond)
                    ->Iterations(1);
            }
        }
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
