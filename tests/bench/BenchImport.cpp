// strata_bench_import: how long strata::model::importOnnxFile takes per model. One benchmark
// per model: the bundled samples plus every path in STRATA_BENCH_MODELS (colon-separated, see
// README.md for producing the big ones). Reports wall time in ms, the imported op count and
// the file's bytes per second. Never a timed assertion.

#include "BenchModels.h"
#include "model/OnnxImporter.h"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace {

namespace fs = std::filesystem;
using strata::bench::benchModels;

void benchImport(benchmark::State& state, const std::string& path) {
    std::error_code ec;
    const auto fileBytes = fs::file_size(path, ec);
    std::size_t ops = 0;
    for (auto _ : state) {
        auto imported = strata::model::importOnnxFile(path);
        if (!imported) {
            // A model that does not import is reported, not timed.
            const auto& diagnostics = imported.diagnostics();
            state.SkipWithError(diagnostics.front().toString().c_str());
            break;
        }
        ops = imported->graph->ops.size();
        benchmark::DoNotOptimize(imported);
    }
    state.counters["nodes"] = static_cast<double>(ops);
    if (!ec) {
        state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(fileBytes));
    }
}

} // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 1;
    }
    for (const auto& model : benchModels()) {
        const std::string name = "import/" + model.filename().string();
        benchmark::RegisterBenchmark(name.c_str(), benchImport, model.string())
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
