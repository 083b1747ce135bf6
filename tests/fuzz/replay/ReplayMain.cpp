// The fuzz targets' inputs replayed in the normal build (docs/FUZZING.md): CI builds with gcc,
// where libFuzzer cannot run, so each target's LLVMFuzzerTestOneInput is compiled in here under
// its own name and fed every file of the folders given: its seed corpus and the committed
// inputs a fuzzer once found (tests/fuzz/corpus/NAME). A crash fails the ctest test; the file
// being fed is printed first so the failure names it.
//
//   strata_fuzz_replay NAME SEEDS [CORPUS...]
//
// SEEDS must be a folder; a CORPUS folder may be absent (a target no fuzzer has broken yet).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#define STRATA_FUZZ_TARGETS(X)                                                                     \
    X(OnnxImport)                                                                                  \
    X(ScheduleJson) X(TargetJson) X(TraceJson) X(TraceCsv) X(Project) X(LayoutProtocol)

// Each Fuzz<NAME>.cpp is compiled with LLVMFuzzerTestOneInput renamed to strataFuzz_<NAME>.
#define STRATA_DECLARE(name) extern "C" int strataFuzz_##name(const std::uint8_t*, std::size_t);
STRATA_FUZZ_TARGETS(STRATA_DECLARE)
#undef STRATA_DECLARE

namespace {

namespace fs = std::filesystem;

using FuzzFunction = int (*)(const std::uint8_t*, std::size_t);

struct Target {
    std::string_view name;
    FuzzFunction function;
};

#define STRATA_ENTRY(name) Target{#name, &strataFuzz_##name},
constexpr Target kTargets[] = {STRATA_FUZZ_TARGETS(STRATA_ENTRY)};
#undef STRATA_ENTRY

// The regular files under `folder`, sorted so a run is repeatable.
std::vector<fs::path> inputsUnder(const fs::path& folder) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec))
            files.push_back(it->path());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: strata_fuzz_replay NAME SEEDS [CORPUS...]\n");
        return 2;
    }
    const auto target = std::find_if(std::begin(kTargets), std::end(kTargets),
                                     [&](const Target& t) { return t.name == argv[1]; });
    if (target == std::end(kTargets)) {
        std::fprintf(stderr, "strata_fuzz_replay: no fuzz target '%s'\n", argv[1]);
        return 2;
    }
    std::size_t replayed = 0;
    for (int i = 2; i < argc; ++i) {
        if (i > 2 && !fs::exists(argv[i]))
            continue;
        if (!fs::is_directory(argv[i])) {
            std::fprintf(stderr, "strata_fuzz_replay: '%s' is not a folder\n", argv[i]);
            return 2;
        }
        for (const fs::path& file : inputsUnder(argv[i])) {
            std::ifstream in(file, std::ios::binary);
            const std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
            std::fprintf(stderr, "%s <- %s\n", argv[1], file.c_str());
            target->function(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
            ++replayed;
        }
    }
    if (replayed == 0) {
        std::fprintf(stderr, "strata_fuzz_replay: no input to replay\n");
        return 1;
    }
    std::printf("%s: %zu inputs replayed\n", argv[1], replayed);
    return 0;
}
