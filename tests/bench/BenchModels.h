#pragma once
// The models every benchmark runs on: the bundled samples plus every path in
// STRATA_BENCH_MODELS (colon-separated; tests/bench/make_bench_models.sh makes the big ones).

#include <filesystem>
#include <vector>

namespace strata::bench {

std::vector<std::filesystem::path> benchModels();

} // namespace strata::bench
