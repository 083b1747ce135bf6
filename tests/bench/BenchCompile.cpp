// strata_bench_compile: compile time per model and target with the default `rules` schedule
// (issue budgets: ResNet-50 on host under 2 s, a 13,000-node transformer under 10 s). Each pass's
// time is a counter (ms). Models as in BenchModels.h. Never a timed assertion.
//   compile/rules/MODEL/TARGET    a compile from scratch
//   recompile/MODEL/TARGET        the GUI's compile after halving one block's mp, with the
//                                 CompileCache the schedule before left (filled untimed; counter
//                                 first_compile_ms is that filling compile, into an empty cache,
//                                 first_verify_ms its verify, which judges every chunk)
//   recompile/fuse-max/EDIT/MODEL/TARGET  the same on the GUI's default fuse-max schedule, after
//                                 halving one block's mp (mp) or splitting the middle block (split)
//   verify/MODEL/TARGET           the verifier alone on the rules schedule's program
// Recompile counters chunk_verdicts_judged and race_rechecks: the blocks verify checked again,
// whole and for their DRAM races only (the rest reuse what the compile before found).

#include "BenchEdits.h"
#include "BenchModels.h"
#include "compiler/Pipeline.h"
#include "compiler/passes/Verify.h"
#include "model/OnnxImporter.h"
#include "schedule/Strategies.h"
#include "target/TargetLoader.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
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

// Each iteration starts from a cache that only the schedule before the edit filled.
void benchRecompile(benchmark::State& state, const Fixture& f, const schedule::Schedule& edited) {
    std::map<std::string, double> passMs;
    double firstMs = 0, firstVerifyMs = 0, judged = 0, rechecked = 0;
    std::unique_ptr<compiler::CompileCache> cache;
    for (auto _ : state) {
        state.PauseTiming();
        cache = std::make_unique<compiler::CompileCache>(*f.graph, f.target); // the last one freed untimed
        compiler::CompileOptions options;
        options.cache = cache.get();
        const auto start = std::chrono::steady_clock::now();
        auto first = compiler::compile(*f.graph, f.target, f.schedule, options);
        firstMs += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (!first) {
            state.SkipWithError("the schedule before the edit does not compile");
            break;
        }
        for (const auto& pass : first->passes)
            if (pass.name == "verify") firstVerifyMs += pass.milliseconds;
        first = compiler::CompileResult{};
        const std::uint64_t missesBefore = cache->verdictMisses(), rechecksBefore = cache->raceRechecks();
        state.ResumeTiming();
        auto result = compiler::compile(*f.graph, f.target, edited, options);
        if (!result) {
            state.SkipWithError(result.diagnostics().front().toString().c_str());
            break;
        }
        for (const auto& pass : result->passes) passMs[pass.name] += pass.milliseconds;
        state.PauseTiming(); // the program's destruction is the caller's
        judged += static_cast<double>(cache->verdictMisses() - missesBefore);
        rechecked += static_cast<double>(cache->raceRechecks() - rechecksBefore);
        result = compiler::CompileResult{};
        state.ResumeTiming();
    }
    const double n = std::max<double>(1, static_cast<double>(state.iterations()));
    for (const auto& [name, ms] : passMs) state.counters[name + "_ms"] = ms / n;
    state.counters["first_compile_ms"] = firstMs / n;
    state.counters["first_verify_ms"] = firstVerifyMs / n;
    state.counters["chunk_verdicts_judged"] = judged / n;
    state.counters["race_rechecks"] = rechecked / n;
}

void benchVerify(benchmark::State& state, const Fixture& f, const compiler::Program& program) {
    for (auto _ : state) benchmark::DoNotOptimize(compiler::verifyProgram(program, *f.graph, f.target));
    state.counters["instructions"] = static_cast<double>(program.instructions.size());
}

} // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    static std::vector<std::unique_ptr<Fixture>> fixtures;
    static std::vector<std::unique_ptr<schedule::Schedule>> edits;
    static std::vector<std::unique_ptr<compiler::Program>> programs;
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
            const std::string model = path.filename().string() + "/" + targetName;
            if (auto edited = bench::oneBlockEdit(fixtures.back()->schedule, *target)) {
                edits.push_back(std::make_unique<schedule::Schedule>(std::move(*edited)));
                benchmark::RegisterBenchmark(("recompile/" + model).c_str(), benchRecompile, std::cref(*fixtures.back()),
                                             std::cref(*edits.back()))
                    ->Unit(benchmark::kMillisecond)
                    ->UseRealTime();
            }
            // The GUI's default schedule, and the edits a user makes on it.
            auto fuseMax = schedule::makeSchedule(*imported->graph, *target, schedule::Strategy::FuseMax);
            const Fixture* rules = fixtures.back().get();
            fixtures.push_back(std::make_unique<Fixture>(Fixture{imported->graph, *target, std::move(fuseMax)}));
            const Fixture& gui = *fixtures.back();
            for (auto [editName, edited] : {std::pair{"mp", bench::oneBlockEdit(gui.schedule, *target)},
                                            std::pair{"split", bench::splitMiddleBlock(gui.schedule, *imported->graph)}}) {
                if (!edited) continue;
                edits.push_back(std::make_unique<schedule::Schedule>(std::move(*edited)));
                benchmark::RegisterBenchmark(("recompile/fuse-max/" + std::string(editName) + "/" + model).c_str(),
                                             benchRecompile, std::cref(gui), std::cref(*edits.back()))
                    ->Unit(benchmark::kMillisecond)
                    ->UseRealTime();
            }
            if (auto compiled = compiler::compile(*imported->graph, *target, rules->schedule)) {
                programs.push_back(std::make_unique<compiler::Program>(std::move(compiled->program)));
                benchmark::RegisterBenchmark(("verify/" + model).c_str(), benchVerify, std::cref(*rules),
                                             std::cref(*programs.back()))
                    ->Unit(benchmark::kMillisecond)
                    ->UseRealTime();
            }
        }
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
