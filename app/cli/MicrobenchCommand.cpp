#include "MicrobenchCommand.h"

#include "ExitCodes.h"
#include "ModelArgs.h"
#include "TargetArg.h"
#include "emulator/Microbench.h"
#include "runtime/Runtime.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
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
    int repeat = 5;
    bool quiet = false;
};

// Throughput measured on this computer by the host runtime, per size: the same programs as the
// emulated columns, each run `repeat` times, bytes over the median total.
struct MeasuredRow {
    std::vector<double> aloneGBps;
    double mixedGBps = 0;
    double idealGBps = 0;
};

Expected<double> measuredGBps(const target::Target& target, const std::vector<std::string>& kinds, std::uint64_t bytes,
                              const MicrobenchArgs& args) {
    auto program = emulator::microbenchProgram(target, kinds, bytes, args.inFlight, args.count);
    if (!program) return program.takeDiagnostics();
    static const ir::Graph kNoModel;
    auto run = runtime::run(*program, target, kNoModel, {}, {.repeat = args.repeat, .timestamps = false});
    if (!run) return run.takeDiagnostics();
    std::vector<double> totals = run->totalsNs;
    std::sort(totals.begin(), totals.end());
    const double median = totals[(totals.size() - 1) / 2];
    return median > 0 ? double(program->transferredBytes()) / median : 0.0; // bytes/ns = GB/s
}

Expected<std::vector<MeasuredRow>> measure(const target::Target& target, const emulator::MicrobenchResult& emulated,
                                           const MicrobenchArgs& args) {
    std::vector<MeasuredRow> rows;
    for (const auto& e : emulated.rows) {
        MeasuredRow row;
        auto mixed = measuredGBps(target, emulated.kinds, e.bytes, args);
        if (!mixed) return mixed.takeDiagnostics();
        row.mixedGBps = *mixed;
        double inverseSum = 0;
        for (const std::string& kind : emulated.kinds) {
            auto alone = measuredGBps(target, {kind}, e.bytes, args);
            if (!alone) return alone.takeDiagnostics();
            row.aloneGBps.push_back(*alone);
            inverseSum += *alone > 0 ? 1 / *alone : 0;
        }
        row.idealGBps = inverseSum > 0 ? double(emulated.kinds.size()) / inverseSum : 0;
        rows.push_back(std::move(row));
    }
    return rows;
}

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

nlohmann::ordered_json resultJson(const emulator::MicrobenchResult& r, const MicrobenchArgs& args, const std::string& target,
                                  const std::vector<MeasuredRow>& measured) {
    nlohmann::ordered_json limits = nlohmann::ordered_json::object();
    for (std::size_t k = 0; k < r.kinds.size(); ++k) limits[r.kinds[k]] = r.limitGBps[k];
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
        const auto& row = r.rows[i];
        nlohmann::ordered_json alone = nlohmann::ordered_json::object();
        for (std::size_t k = 0; k < r.kinds.size(); ++k) alone[r.kinds[k]] = row.aloneGBps[k];
        nlohmann::ordered_json out = {{"words", row.words},
                                      {"bytes", row.bytes},
                                      {"alone_gbps", alone},
                                      {"mixed_gbps", row.mixedGBps},
                                      {"ideal_gbps", row.idealGBps}};
        if (i < measured.size()) {
            nlohmann::ordered_json measuredAlone = nlohmann::ordered_json::object();
            for (std::size_t k = 0; k < r.kinds.size(); ++k) measuredAlone[r.kinds[k]] = measured[i].aloneGBps[k];
            out["measured"] = {{"alone_gbps", measuredAlone},
                               {"mixed_gbps", measured[i].mixedGBps},
                               {"ideal_gbps", measured[i].idealGBps}};
        }
        rows.push_back(std::move(out));
    }
    nlohmann::ordered_json j = {{"source", measured.empty() ? "emulated" : "emulated and measured"},
                                {"target", target},
                                {"kinds", r.kinds},
                                {"in_flight", args.inFlight},
                                {"word_bytes", args.wordBytes},
                                {"transfers_per_kind", args.count}};
    if (!measured.empty()) j["repeat"] = args.repeat;
    j["limit_gbps"] = limits;
    j["rows"] = rows;
    return j;
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

// Emulated next to measured, as the seed's figures plot them ("emu" and "act").
void printMeasuredTable(const emulator::MicrobenchResult& r, const std::vector<MeasuredRow>& measured,
                        const MicrobenchArgs& args, const std::string& target) {
    std::string kinds;
    for (const auto& k : r.kinds) kinds += (kinds.empty() ? "" : ", ") + k;
    std::cout << fmt::format("Transfer microbenchmark on {}, emulated (emu) and measured on this computer (act, median of "
                             "{} runs): {} issued alternately, at most {} in flight, {} per kind; throughput in GB/s\n\n",
                             target, args.repeat, kinds, args.inFlight, args.count);
    std::cout << fmt::format("{:>8} {:>10}", "words", "bytes");
    for (const auto& k : r.kinds) std::cout << fmt::format(" {:>9} {:>9}", k + " emu", k + " act");
    const std::string total = r.kinds.size() > 1 ? "mixed" : "program";
    std::cout << fmt::format(" {:>11} {:>11} {:>9} {:>9}\n", total + " emu", total + " act", "ideal emu", "ideal act");
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
        const auto& e = r.rows[i];
        const auto& m = measured[i];
        std::cout << fmt::format("{:>8} {:>10}", e.words, e.bytes);
        for (std::size_t k = 0; k < r.kinds.size(); ++k) std::cout << fmt::format(" {:>9.2f} {:>9.2f}", e.aloneGBps[k], m.aloneGBps[k]);
        std::cout << fmt::format(" {:>11.2f} {:>11.2f} {:>9.2f} {:>9.2f}\n", e.mixedGBps, m.mixedGBps, e.idealGBps, m.idealGBps);
    }
    std::cout << "\nemu: the emulator's prediction with this target; act: bytes over the measured total\n"
                 "ideal = harmonic mean of the kinds alone (the seed's sequential ideal)\n";
}

int runMicrobench(const MicrobenchArgs& args) {
    if (args.repeat < 1) {
        std::cerr << "error: --repeat: must be at least 1\n";
        return kExitBadInput;
    }
    auto sizes = parseSizes(args.sizes);
    if (!sizes || sizes->empty()) {
        std::cerr << "error: --sizes: expected sizes in words such as 64, or ranges such as 1..4096 (powers of two)\n";
        return kExitBadInput;
    }
    auto target = loadTarget(args.target, args.quiet);
    if (!target) return kExitBadInput;
    if (args.measure && target->name != "host") {
        std::cerr << "error: --measure runs the program on this computer: use --target host (or a calibrated host "
                     "file), not '" << target->name << "'\n";
        return kExitBadInput;
    }
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
    std::vector<MeasuredRow> measured;
    if (args.measure) {
        auto rows = measure(*target, *result, args);
        if (!rows) {
            printDiagnostics(rows.diagnostics());
            return kExitFailed;
        }
        measured = std::move(rows).value();
    }
    if (args.json)
        std::cout << resultJson(*result, args, target->name, measured).dump(2) << "\n";
    else if (args.measure)
        printMeasuredTable(*result, measured, args, target->name);
    else
        printTable(*result, args, target->name);
    return kExitOk;
}

} // namespace

void addMicrobenchCommand(CLI::App& app, int& exitCode) {
    auto args = std::make_shared<MicrobenchArgs>();
    CLI::App* cmd = app.add_subcommand(
        "microbench", "Transfer throughput vs size per kind, two kinds issued alternately");
    addTargetOption(cmd, args->target);
    cmd->add_option("--kinds", args->kinds, "Transfer paths issued alternately, e.g. mvp,mvb")->delimiter(',')->capture_default_str();
    cmd->add_option("--sizes", args->sizes, "Sizes per transfer in words: 64, or 1..4096 for powers of two")
        ->delimiter(',')
        ->capture_default_str();
    cmd->add_option("--in-flight", args->inFlight, "Transfers outstanding at most")->capture_default_str();
    cmd->add_option("--count", args->count, "Transfers of each kind per size")->capture_default_str();
    cmd->add_option("--word-bytes", args->wordBytes, "Bytes per word (MN-Core's long word: 8)")->capture_default_str();
    cmd->add_flag("--json", args->json, "Print one JSON object instead of text");
    cmd->add_flag("--measure", args->measure, "Also run the programs on this computer (host target) and print measured throughput");
    cmd->add_option("--repeat", args->repeat, "With --measure: runs per program; the median total counts")->capture_default_str();
    cmd->add_flag("-q,--quiet", args->quiet, "Do not print warnings");
    cmd->callback([args, &exitCode] { exitCode = runMicrobench(*args); });
}

} // namespace strata::cli
