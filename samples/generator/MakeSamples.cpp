// strata_make_samples: writes Strata's bundled sample models, or a deep transformer stack for
// the import benchmark. Output is deterministic so the committed samples can be regenerated
// byte for byte.

#include "SampleModels.h"

#include <charconv>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>

namespace {

namespace fs = std::filesystem;
using strata::samples::makeMobilenetTiny;
using strata::samples::makeResnetTiny;
using strata::samples::makeTransformer;

// 265 layers of 49 nodes is ~13,000 nodes: big enough that the importer's per-node costs show
// up in the benchmark, with hidden size 64 keeping the file near 50 MB.
constexpr int kDefaultStackLayers = 265;

constexpr const char* kUsage =
    "usage: strata_make_samples OUTDIR\n"
    "         writes resnet_tiny.onnx, mobilenet_tiny.onnx and transformer_block.onnx\n"
    "       strata_make_samples [--transformer-layers N] -o FILE\n"
    "         writes a stack of N transformer blocks (default %d) for benchmarks\n";

void printUsage(std::FILE* stream) {
    std::fprintf(stream, kUsage, kDefaultStackLayers);
}

bool writeModel(const onnx::ModelProto& model, const fs::path& path) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out || !model.SerializeToOstream(&out)) {
        std::fprintf(stderr, "error: cannot write %s\n", path.c_str());
        return false;
    }
    out.close();
    if (!out) {
        std::fprintf(stderr, "error: cannot write %s\n", path.c_str());
        return false;
    }
    std::printf("%s: %d nodes, %ju bytes\n", path.c_str(), model.graph().node_size(),
                static_cast<std::uintmax_t>(fs::file_size(path)));
    return true;
}

int writeSamples(const fs::path& outDir) {
    std::error_code ec;
    fs::create_directories(outDir, ec);
    if (ec) {
        std::fprintf(stderr, "error: cannot create %s: %s\n", outDir.c_str(), ec.message().c_str());
        return 1;
    }
    const bool ok = writeModel(makeResnetTiny(), outDir / "resnet_tiny.onnx") &&
                    writeModel(makeMobilenetTiny(), outDir / "mobilenet_tiny.onnx") &&
                    writeModel(makeTransformer(1), outDir / "transformer_block.onnx");
    return ok ? 0 : 1;
}

// A positive integer, or nothing.
std::optional<int> parseLayers(std::string_view text) {
    int layers = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), layers);
    if (ec != std::errc() || end != text.data() + text.size() || layers < 1) {
        return std::nullopt;
    }
    return layers;
}

int run(int argc, char** argv) {
    std::optional<int> layers;
    std::string output;
    std::string outDir;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const bool hasValue = i + 1 < argc;
        if (arg == "-h" || arg == "--help") {
            printUsage(stdout);
            return 0;
        } else if (arg == "--transformer-layers" && hasValue) {
            layers = parseLayers(argv[++i]);
            if (!layers) {
                std::fprintf(stderr, "error: --transformer-layers needs a positive integer\n");
                return 2;
            }
        } else if (arg == "-o" && hasValue) {
            output = argv[++i];
        } else if (!arg.starts_with("-") && outDir.empty()) {
            outDir = arg;
        } else {
            printUsage(stderr);
            return 2;
        }
    }

    if (!output.empty() && outDir.empty()) {
        const auto model = makeTransformer(layers.value_or(kDefaultStackLayers));
        return writeModel(model, output) ? 0 : 1;
    }
    if (output.empty() && !outDir.empty() && !layers) {
        return writeSamples(outDir);
    }
    printUsage(stderr);
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        // Only a bug in the generator itself gets here (e.g. a duplicated node name).
        std::fprintf(stderr, "internal error: %s\n", e.what());
        return 3;
    }
}
