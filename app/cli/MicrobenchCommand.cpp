#include "MicrobenchCommand.h"

#include "ExitCodes.h"
#include "ModelArgs.h"
#include "TargetArg.h"
#include "emulator/Microbench.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <charconv>
#include <iostream>
#include <memory>
#include <optional>

namespace strata::cli {

namespace {

struct MicrobenchArgs {
    std::string target;
    std::vector<std::string> kinds{"mvp", "mvb"};
    std::vector<std::string> sizes{"1..4096"};
    int inFlight = 2;
    int count = 32;
    std::uint64_t wordBytes = 8;
    bool json = false;
    bool measure = false;
    bool quiet = false;
};

std::optional<std::uint64_t> parseCount(std::string_view text) {
    std::uint64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value == 0) return std::nullopt;
    return value;
}

// "64" or "1..4096" (powers of two from the first to the second).
std::optional<std::vector<std::uint64_t>> parseSizes(const std::vector<std::string>& items) {
    std::vector<std::uint64_t> sizes;
    for (const std::string& item : items) {
        const auto dots = item.find("..");
        if (dots == std::string::npos) {
            auto v = parseCount(item);
            if (!v) return std::nullopt;
            sizes.push_back(*v);
            continue;
        }
        auto from = parseCount(std::string_view(item).substr(0, dots));
        auto to = parseCount(std::string_view(item).substr(dots + 2));
        if (!from || !to || *from > *to) return std::nullopt;
        for (std::uint64_t v = *from; v <= *to && sizes.size() < 4096; v *= 2) sizes.push_back(v);
    }
    return sizes;
}

nlohmann::ordered_json resultJson(const emulator::MicrobenchResult& r, const MicrobenchArgs& args, const std::string& target) {
    nlohmann::ordered_json limits = nlohmann::ordered_json::object();
    for (std::size_t k = 0; k < r.kinds.size(); ++k) limits[r.kinds[k]] = r.limitGBps[k];
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& row : r.rows) {
        nlohmann::ordered_json alone = nlohmann::ordered_json::object();
        for (std::size_t k = 0; k < r.kinds.size(); ++k) alone[r.kinds[k]] = row.aloneGBps[k];
        rows.push_back({{"words", row.words},
                        {"bytes", row.bytes},
                        {"alone_gbps", alone},
                        {"mixed_gbps", row.mixedGBps},
                        {"ideal_gbps", row.idealGBps}});
    }
    return {{"source", "emulated"}, {"target", target},    {"kinds", r.kinds},         {"in_flight", args.inFlight},
            {"word_bytes", args.wordBytes}, {"transfers_per_kind", args.count}, {"limit_gbps", limits}, {"rows", rows}};
}

void printTable(const emulator::MicrobenchResult& r, const MicrobenchArgs& args, const std::string& target) {
    std::string kinds;
    for (const auto& k : r.kinds) kinds += (kinds.empty() ? "" : ", ") + k;
    std::cout << fmt::format("Transfer microbenchmark on {} (emulated): {} issued alternately, at most {} in flight, {} "
                             "per kind; throughput in GB/s\n\n",
                             target, kinds, args.inFlight, args.count);
    std::cout << fmt::format("{:>8} {:>10}", "words", "bytes");
    for (const auto& k : r.kinds) std::cout << fmt::format(" {:>10}", k);
    std::cout << fmt::format(" {:>10} {:>10}\n", r.kinds.size() > 1 ? "mixed" : "program", "ideal");
    for (const auto& row : r.rows) {
        std::cout << fmt::format("{:>8} {:>10}", row.words, row.bytes);
        for (double v : row.aloneGBps) std::cout << fmt::format(" {:>10.2f}", v);
        std::cout << fmt::format(" {:>10.2f} {:>10.2f}\n", row.mixedGBps, row.idealGBps);
    }
    std::cout << "\nlimit with " << args.inFlight << " in flight:";
    for (std::size_t k = 0; k < r.kinds.size(); ++k) std::cout << fmt::format(" {} {:.1f}", r.kinds[k], r.limitGBps[k]);
    std::cout << " GB/s\nideal = harmonic mean of the kinds alone (the seed's sequential ideal)\n";
}

int runMicrobench(const MicrobenchArgs& args) {
    if (args.measure) {
        std::cerr << "error: --measure: not yet available: measured runs come with the host runtime\n";
        return kExitBadInput;
    }
    auto sizes = parseSizes(args.sizes);
    if (!sizes || sizes->empty()) {
        std::cerr << "error: --sizes: expected sizes in words such as 64, or ranges such as 1..4096 (powers of two)\n";
        return kExitBadInput;
    }
    auto target = loadTarget(args.target, args.quiet);
    if (!target) return kExitBadInput;
    emulator::MicrobenchSpec spec;
    spec.kinds = args.kinds;
    spec.sizes = *sizes;
    spec.wordBytes = args.wordBytes;
    spec.inFlight = args.inFlight;
    spec.transfersPerKind = args.count;
    auto result = emulator::runMicrobench(*target, spec);
    if (!result) {
        printDiagnostics(result.diagnostics());
        return kExitBadInput;
    }
    if (args.json)
        std::cout << resultJson(*result, args, target->name).dump(2) << "\n";
    else
        printTable(*result, args, target->name);
    return kExitOk;
}

} // namespace

void addMicrobenchCommand(CLI::App& app, int& exitCode) {
    auto args = std::make_shared<MicrobenchArgs>();
    CLI::App* cmd = app.add_subcommand("microbench", "Transfer throughput vs size per kind (seed 004's experiment)");
    addTargetOption(cmd, args->target);
    cmd->add_option("--kinds", args->kinds, "Transfer paths issued alternately, e.g. mvp,mvb")->delimiter(',')->capture_default_str();
    cmd->add_option("--sizes", args->sizes, "Sizes per transfer in words: 64, or 1..4096 for powers of two")
        ->delimiter(',')
        ->capture_default_str();
    cmd->add_option("--in-flight", args->inFlight, "Transfers outstanding at most")->capture_default_str();
    cmd->add_option("--count", args->count, "Transfers of each kind per size")->capture_default_str();
    cmd->add_option("--word-bytes", args->wordBytes, "Bytes per word (MN-Core's long word: 8)")->capture_default_str();
    cmd->add_flag("--json", args->json, "Print one JSON object instead of text");
    cmd->add_flag("--measure", args->measure, "Run the program for real (not yet available)");
    cmd->add_flag("-q,--quiet", args->quiet, "Do not print warnings");
    cmd->callback([args, &exitCode] { exitCode = runMicrobench(*args); });
}

} // namespace strata::cli
