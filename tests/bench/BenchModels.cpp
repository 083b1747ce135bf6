#include "BenchModels.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <system_error>

namespace strata::bench {
namespace {

namespace fs = std::filesystem;

// The .onnx files directly inside `dir`, sorted so the run order is stable.
std::vector<fs::path> onnxFilesIn(const fs::path& dir) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        if (entry.is_regular_file() && entry.path().extension() == ".onnx") {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

// Splits a PATH-style list; empty entries are dropped.
std::vector<fs::path> splitPathList(std::string_view list) {
    std::vector<fs::path> paths;
    while (!list.empty()) {
        const auto colon = list.find(':');
        const auto item = list.substr(0, colon);
        if (!item.empty()) {
            paths.emplace_back(item);
        }
        list = colon == std::string_view::npos ? std::string_view{} : list.substr(colon + 1);
    }
    return paths;
}

} // namespace

std::vector<fs::path> benchModels() {
    std::vector<fs::path> models = onnxFilesIn(STRATA_SAMPLES_DIR);
    if (const char* extra = std::getenv("STRATA_BENCH_MODELS")) {
        for (auto& path : splitPathList(extra)) {
            if (std::find(models.begin(), models.end(), path) == models.end()) {
                models.push_back(std::move(path));
            }
        }
    }
    return models;
}

} // namespace strata::bench
