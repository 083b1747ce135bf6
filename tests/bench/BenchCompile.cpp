// strata_bench_compile: compile time per model and target with the default `rules` schedule
// (issue budgets: ResNet-50 on host under 2 s, a 13,000-node transformer under 10 s). Each pass's
// time is a counter (ms). Models as in BenchModels.h. Never a timed assertion.

#include "BenchModels.h"
#include "compiler/Pipeline.h"
#include "model/OnnxImporter.h"
#include "schedule/Strategies.h"
#include "target/TargetLoader.h"

#include <benchmark/benchmark.h>

#include <memory>
#include <string>

namespace {

using namespace strata;

struct Fixture {
    std::shared_ptr<const ir::Graph> graph;
    target::Target target;
    schedule::Schedule schedule;
};

void benchCompile(benchmark::State& state, const Fixture& f) {
    std::vector<compiler::PassRecord> last;
    std::size_t instructions = 0;
    for (auto _ : state) {
        auto result = compiler::compile(*f.graph, f.target, f.schedule);
        if (!result) {
            state.SkipWithError(result.diagnostics().front().toString().c_str());
            break;
        }
        instructions = result->program.instructions.size();
        last = result->passes;
        benchmark::DoNotOptimize(result);
    }
    for (const auto& pass : last) state.counters[pass.name + "_ms"] = pass.milliseconds;
    state.counters["instructions"] = static_cast<double>(instructions);
}

} // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    static std::vector<std::unique_ptr<Fixture>> fixtures;
    for (const auto& path : bench::benchModels()) {
        auto imported = model::importOnnxFile(path.string());
        if (!imported) continue;
        for (const char* targetName : {"host", "mncore2"}) {
            auto target = target::resolveTarget(targetName);
            if (!target) continue;
            auto schedule = schedule::makeSchedule(*imported->graph, *target, schedule::Strategy::Rules);
            fixtures.push_back(std::make_unique<Fixture>(Fixture{imported->graph, *target, std::move(schedule)}));
            const std::string name = "compile/rules/" + path.filename().string() + "/" + targetName;
            benchmark::RegisterBenchmark(name.c_str(), benchCompile, std::cref(*fixtures.back()))
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
        }
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
