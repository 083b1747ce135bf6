#include "CalibrateCommand.h"

#include "ExitCodes.h"
#include "ModelArgs.h"
#include "TargetArg.h"
#include "base/SafeFiles.h"
#include "base/Units.h"
#include "calibrate/Calibrate.h"
#include "calibrate/PreviousCalibration.h"
#include "ir/OpClass.h"
#include "target/CalibratedHost.h"
#include "target/TargetLoader.h"
#include "target/TargetWriter.h"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace strata::cli {

namespace {

// Where `host` looks for this machine's figures (CalibratedHost.h), or the working directory
// when there is no config directory.
std::string defaultOutput() {
    const std::string file = target::defaultCalibratedHostFile();
    return file.empty() ? "host.calibrated.json" : file;
}

struct CalibrateArgs {
    std::string target = "host";
    std::string output = defaultOutput();
    bool json = false;
    bool quick = false;
    bool quiet = false;
    std::string samples; // --samples: every transfer sample the path fits used, as CSV
};

// Every transfer sample of every path, for fitting offline (docs/CALIBRATION.md): the isolated
// programs' (one per shape, its median), then the compiled programs' by kind of read.
bool writeSamples(const calibrate::CalibrationReport& report, const std::string& file) {
    std::ofstream out(file);
    if (!out) return false;
    out << "path,source,kind,bytes,rows,cycles,concurrent,reuse_bytes\n";
    static constexpr const char* kKinds[] = {"other", "weight", "cached", "cached_write", "shared"};
    static_assert(std::size(kKinds) == target::kReadKinds);
    auto row = [&](const std::string& path, const char* source, const char* kind,
                   const calibrate::TransferSample& s) {
        out << fmt::format("{},{},{},{},{},{:.1f},{:.3f},{:.0f}\n", path, source, kind, s.bytes,
                           s.rows, s.cycles, s.concurrent, s.reuseBytes);
    };
    for (const calibrate::PathReport& p : report.paths) {
        for (std::size_t i = 0; i < p.samples.size(); ++i)
            row(p.path, i < p.isolatedSamples ? "isolated" : "compiled", "other", p.samples[i]);
        for (std::size_t k = 1; k < p.kindData.size(); ++k)
            for (const calibrate::TransferSample& s : p.kindData[k])
                row(p.path, "compiled", kKinds[k], s);
        // The skip chains' (reuseDistanceGraphs): reuseData holds kindData's first.
        for (std::size_t k = 1; k < p.reuseData.size(); ++k)
            for (std::size_t i = p.kindData[k].size(); i < p.reuseData[k].size(); ++i)
                row(p.path, "reuse", kKinds[k], p.reuseData[k][i]);
    }
    return bool(out);
}

nlohmann::ordered_json reuseDistanceJson(const std::vector<target::DistanceRate>& points) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const target::DistanceRate& point : points)
        out.push_back({{"bytes", point.bytes}, {"bytes_per_cycle", point.bytesPerCycle}});
    return out;
}

// A path's figures for one kind of read as written to the target (latency with the stream gap),
// or null when it has none.
nlohmann::ordered_json figuresJson(const std::optional<calibrate::TransferFit>& fit,
                                   const std::optional<target::ReadFigures>& figures,
                                   std::size_t samples) {
    if (!fit || !figures) return nullptr;
    return {{"latency_cycles", figures->latencyCycles},
            {"bytes_per_cycle", fit->bytesPerCycle},
            {"rms_relative_error", fit->rmsRelativeError},
            {"shape_rms_relative_error", fit->shapeRmsRelativeError},
            {"relative_errors",
             {{"latency", fit->latencyRelativeError}, {"bandwidth", fit->bandwidthRelativeError}}},
            {"ramp_bytes", fit->rampBytes},
            {"ramp_bytes_per_cycle", fit->rampBytesPerCycle},
            {"spill_bytes", fit->spillBytes},
            {"spill_bytes_per_cycle", fit->spillBytesPerCycle},
            {"by_reuse_distance", reuseDistanceJson(figures->byReuseDistance)},
            {"samples", samples}};
}

// The first column of a kind's lines in the text report.
const char* kindColumn(target::ReadKind kind) {
    switch (kind) {
    case target::ReadKind::Weight:
        return "  weights";
    case target::ReadKind::Cached:
        return "  cached";
    case target::ReadKind::CachedWrite:
        return "  into cache";
    case target::ReadKind::Shared:
        return "  shared";
    case target::ReadKind::Other:
        break;
    }
    return "";
}

nlohmann::ordered_json readFiguresJson(const calibrate::PathReport& p,
                                       const target::TransferPath* path, target::ReadKind kind) {
    return figuresJson(p.kindFits[static_cast<std::size_t>(kind)],
                       path ? path->figuresOf(kind) : std::nullopt,
                       p.kindSamples[static_cast<std::size_t>(kind)]);
}

// As the calibrated file holds them: [{"cores", "ns"}].
nlohmann::ordered_json speedChecksJson(const target::SpeedCheckTimes& checks) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& [cores, ns] : checks)
        out.push_back({{"cores", cores}, {"ns", ns}});
    return out;
}

nlohmann::ordered_json reportJson(const calibrate::CalibrationReport& r, const std::string& output) {
    nlohmann::ordered_json paths = nlohmann::ordered_json::array();
    for (const auto& p : r.paths) {
        const target::TransferPath* path = r.target.findPath(p.path);
        paths.push_back({{"name", p.path},
                         {"latency_cycles", path ? path->latencyCycles : 0},
                         {"row_overhead_cycles", p.fit.rowOverheadCycles},
                         {"bytes_per_cycle", p.fit.bytesPerCycle},
                         {"ramp_bytes", p.fit.rampBytes},
                         {"ramp_bytes_per_cycle", p.fit.rampBytesPerCycle},
                         {"spill_bytes", p.fit.spillBytes},
                         {"spill_bytes_per_cycle", p.fit.spillBytesPerCycle},
                         {"rms_relative_error", p.fit.rmsRelativeError},
                         {"shape_rms_relative_error", p.fit.shapeRmsRelativeError},
                         {"relative_errors",
                          {{"latency", p.fit.latencyRelativeError},
                           {"row_overhead", p.fit.rowOverheadRelativeError},
                           {"bandwidth", p.fit.bandwidthRelativeError}}},
                         {"refused", p.refused},
                         {"sizes", p.fit.samples},
                         {"compiled_transfers", p.compiledSamples},
                         {"largest_bytes", p.largestBytes},
                         {"size_limit", p.sizeLimit},
                         {"weight_reads", readFiguresJson(p, path, target::ReadKind::Weight)},
                         {"cached_reads", readFiguresJson(p, path, target::ReadKind::Cached)},
                         {"cached_writes", readFiguresJson(p, path, target::ReadKind::CachedWrite)},
                         {"shared_reads", readFiguresJson(p, path, target::ReadKind::Shared)}});
        paths.back()["warm_weight_reads"] = figuresJson(
            p.warmWeightFit, path ? path->warmWeightReads : std::nullopt, p.warmWeightData.size());
        if (path && path->warmWeightReads)
            paths.back()["warm_weight_bytes"] = path->warmWeightBytes;
        if (p.residentRowOverheadCycles)
            paths.back()["resident_row_overhead_cycles"] = *p.residentRowOverheadCycles;
        paths.back()["contention"] = {{"bytes_per_cycle", p.contention.bytesPerCycle},
                                      {"small_slowdown", p.contention.smallSlowdown},
                                      {"large_slowdown", p.contention.largeSlowdown},
                                      {"samples", p.contention.samples}};
        paths.back()["contention"]["concurrent_slowdown"] = p.concurrentSlowdown;
    }
    nlohmann::ordered_json classes = nlohmann::ordered_json::array();
    for (std::size_t c = 0; c < calibrate::kComputeClasses; ++c)
        if (r.compute.samples[c])
            classes.push_back({{"class", calibrate::computeClassName(c)},
                               {"throughput_per_cycle", r.compute.throughputPerCycle[c]},
                               {"rms_relative_error", r.compute.rmsRelativeError[c]},
                               {"samples", r.compute.samples[c]}});
    nlohmann::ordered_json paired = nlohmann::ordered_json::array();
    for (const calibrate::PairedTransfers& t : r.paired)
        paired.push_back({{"path", t.path},
                          {"other_core", t.otherPath.empty() ? "idle" : t.otherPath},
                          {"bytes", t.bytes},
                          {"cycles", t.cycles}});
    const auto& o = r.target.overheads;
    return {{"target_file", output},
            {"cores", r.cores},
            {"seconds", r.seconds},
            {"other_load",
             r.otherLoad ? nlohmann::ordered_json(*r.otherLoad) : nlohmann::ordered_json(nullptr)},
            {"core_pace_cycles", r.corePace ? nlohmann::ordered_json(r.corePace->cycles)
                                            : nlohmann::ordered_json(nullptr)},
            {"speed_checks", speedChecksJson(r.speedChecks)},
            {"warnings", r.warnings},
            {"remeasured", r.remeasured},
            {"gap_ns", r.gapNs},
            {"paths", paths},
            {"contention", paired},
            {"shared",
             {{"resource", r.sharedResource},
              {"bytes_per_cycle", r.shared.bytesPerCycle},
              {"rms_relative_error", r.shared.rmsRelativeError},
              {"samples", r.shared.samples}}},
            {"compute",
             {{"overhead_cycles", r.compute.overheadCycles},
              {"rms_relative_error", r.compute.rmsRelativeErrorAll},
              {"classes", classes},
              {"one_core_work_factor", r.oneCoreWorkFactor},
              {"one_core_samples", r.oneCoreSamples},
              {"join_skew",
               {{"coefficient", r.joinSkew.coefficient},
                {"exponent", r.joinSkew.exponent},
                {"samples", r.joinSamples}}},
              {"skipped", r.computeSkipped}}},
            {"overhead_cycles",
             {{"compute", o.computeCycles},
              {"transfer_issue", o.transferIssueCycles},
              {"wait", o.waitCycles},
              {"barrier", o.barrierCycles},
              {"conv_output", o.convOutputCycles},
              {"depthwise_row", o.depthwiseRowCycles},
              {"grouped_conv_element", o.groupedConvElementCycles},
              {"weight_byte", o.weightByteCycles},
              {"conv_far_weight_byte", o.convFarWeightByteCycles},
              {"matmul_far_weight_byte", o.matmulFarWeightByteCycles},
              {"reorder_far_byte", o.reorderFarByteCycles},
              {"reorder_samples", r.reorderSamples}}}};
}

void printReport(const calibrate::CalibrationReport& r, const std::string& output) {
    const double ghz = r.target.clockHz / 1e9;
    std::cout << fmt::format("Calibrated '{}' on this computer ({} cores, {:.2f} GHz) in {:.1f} s; wrote {}\n\n",
                             r.target.name, r.cores, ghz, r.seconds, output);
    std::cout << fmt::format("{:<10} {:>14} {:>10} {:>16} {:>10} {:>7}  {}\n", "path", "latency (cyc)", "row (cyc)",
                             "bandwidth (B/cyc)", "GB/s", "RMS err", "sizes");
    for (const auto& p : r.paths) {
        const target::TransferPath* path = r.target.findPath(p.path);
        std::cout << fmt::format("{:<10} {:>14.0f} {:>10.1f} {:>16.2f} {:>10.2f} {:>6.1f}%  {} samples ({} from compiled "
                                 "programs), sizes 64..{} bytes{}\n",
                                 p.path, path ? path->latencyCycles : 0, p.fit.rowOverheadCycles, p.fit.bytesPerCycle,
                                 p.fit.bytesPerCycle * ghz,
                                 100 * p.fit.rmsRelativeError, p.fit.samples, p.compiledSamples, p.largestBytes,
                                 p.sizeLimit.empty() ? "" : " (limited: " + p.sizeLimit + ")");
        for (const auto kind : target::kOwnFigureKinds) {
            const auto& fit = p.kindFits[static_cast<std::size_t>(kind)];
            const auto& figures = path ? path->figuresOf(kind) : std::nullopt;
            if (!fit || !figures) continue;
            std::cout << fmt::format(
                "{:<10} {:>14.0f} {:>10} {:>16.2f} {:>10.2f} {:>6.1f}%  {} {} of the compiled "
                "programs\n",
                kindColumn(kind), figures->latencyCycles, "", fit->bytesPerCycle,
                fit->bytesPerCycle * ghz, 100 * fit->rmsRelativeError,
                p.kindSamples[static_cast<std::size_t>(kind)],
                kind == target::ReadKind::Weight   ? "weight reads"
                : kind == target::ReadKind::Cached ? "reads of data the core stored"
                : kind == target::ReadKind::Shared ? "reads of rows another core stored"
                                                   : "stores into lines the core holds");
        }
        for (const auto kind :
             {target::ReadKind::Other, target::ReadKind::Weight, target::ReadKind::Cached,
              target::ReadKind::CachedWrite, target::ReadKind::Shared}) {
            const auto& fit = kind == target::ReadKind::Other
                                  ? std::optional<calibrate::TransferFit>(p.fit)
                                  : p.kindFits[static_cast<std::size_t>(kind)];
            if (fit && fit->rampBytes > 0)
                std::cout << fmt::format("{:<10} ramp: the first {:.0f} bytes at {:.2f} B/cycle\n",
                                         kindColumn(kind), fit->rampBytes, fit->rampBytesPerCycle);
            if (fit && fit->spillBytes > 0)
                std::cout << fmt::format("{:<10} spill: bytes past {:.0f} at {:.2f} B/cycle\n",
                                         kindColumn(kind), fit->spillBytes,
                                         fit->spillBytesPerCycle);
        }
        for (const auto kind : {target::ReadKind::Cached, target::ReadKind::CachedWrite})
            if (const auto& points = p.byReuseDistance[static_cast<std::size_t>(kind)];
                !points.empty()) {
                std::string rates;
                for (const target::DistanceRate& point : points)
                    rates +=
                        fmt::format("{}{} {:.1f}", rates.empty() ? "" : ", ",
                                    formatBytes(std::uint64_t(point.bytes)), point.bytesPerCycle);
                std::cout << fmt::format(
                    "{:<10} past the private cache, by traffic since: {} B/cycle "
                    "({} transfers)\n",
                    kindColumn(kind), rates, p.reuseData[static_cast<std::size_t>(kind)].size());
            }
        if (p.residentRowOverheadCycles)
            std::cout << fmt::format("{:<10} {:>14} {:>10.1f}  rows already in the core's cache\n",
                                     "  resident", "", *p.residentRowOverheadCycles);
        std::cout << fmt::format("{:<10} standard errors: latency +-{:.0f}%, row overhead "
                                 "+-{:.0f}%, bandwidth +-{:.0f}%\n",
                                 "", 100 * p.fit.latencyRelativeError,
                                 100 * p.fit.rowOverheadRelativeError,
                                 100 * p.fit.bandwidthRelativeError);
        for (const std::string& refused : p.refused)
            std::cout << fmt::format("{:<10} refused: {}\n", "", refused);
        if (p.contention.largeSlowdown > 0)
            std::cout << fmt::format(
                "{:<10} two cores at once: {:.2f}x alone up to 64 KiB, {:.2f}x from 256 KiB: {}\n",
                "", p.contention.smallSlowdown, p.contention.largeSlowdown,
                p.contention.bytesPerCycle > 0
                    ? fmt::format("'{}_contention' {:.2f} B/cycle", p.path,
                                  p.contention.bytesPerCycle)
                    : std::string("not bandwidth (no resource of its own)"));
        for (const auto& [other, factor] : p.concurrentSlowdown)
            std::cout << fmt::format("{:<10} bytes move {:.2f}x slower while the other core uses "
                                     "'{}'\n",
                                     "", factor, other);
    }
    if (!r.sharedResource.empty())
        std::cout << fmt::format("shared '{}': {:.2f} B/cycle ({:.2f} GB/s) from {} contended measurements, RMS err {:.1f}%\n",
                                 r.sharedResource, r.shared.bytesPerCycle, r.shared.bytesPerCycle * ghz, r.shared.samples,
                                 100 * r.shared.rmsRelativeError);
    for (const calibrate::PairedTransfers& t : r.paired)
        if (!t.otherPath.empty())
            for (const calibrate::PairedTransfers& alone : r.paired)
                if (alone.otherPath.empty() && alone.path == t.path && alone.bytes == t.bytes &&
                    alone.cycles > 0)
                    std::cout << fmt::format(
                        "contention: '{}' {} bytes while the other core uses '{}': {:.2f}x "
                        "its time alone\n",
                        t.path, t.bytes, t.otherPath, t.cycles / alone.cycles);
    std::cout << fmt::format("\n{:<14} {:>18} {:>8} {:>8}\n", "op class", "throughput/cycle", "samples", "RMS err");
    for (std::size_t c = 0; c < calibrate::kComputeClasses; ++c)
        if (r.compute.samples[c])
            std::cout << fmt::format("{:<14} {:>18.4g} {:>8} {:>7.1f}%\n", calibrate::computeClassName(c),
                                     r.compute.throughputPerCycle[c], r.compute.samples[c], 100 * r.compute.rmsRelativeError[c]);
    for (const auto& skipped : r.computeSkipped) std::cout << "skipped " << skipped << "\n";
    const auto& o = r.target.overheads;
    if (r.oneCoreSamples)
        std::cout << fmt::format("a block on one core runs its computes' work at {:.3f}x the time "
                                 "with every core busy ({} computes)\n",
                                 r.oneCoreWorkFactor, r.oneCoreSamples);
    if (r.joinSkew.coefficient > 0) {
        // In microseconds, as a user thinks of a block: the clock converts cycles.
        auto lateUs = [&](double blockUs) {
            const double cyclesPerUs = r.target.clockHz / 1e6;
            return r.joinSkew.cycles(blockUs * cyclesPerUs) / cyclesPerUs;
        };
        std::cout << fmt::format("cores given equal work: the last reaches a barrier {:.2f} us "
                                 "after their mean in a 10 us block, {:.1f} us in a 1 ms one "
                                 "({} barriers)\n",
                                 lateUs(10), lateUs(1000), r.joinSamples);
    }
    std::cout << fmt::format(
        "\noverheads (cycles): compute {:.0f}, transfer issue {:.0f}, wait {:.0f}, barrier {:.0f}, "
        "per conv output {:.3g}, per depthwise row {:.3g}, per grouped-conv plane element {:.3g}, "
        "per weight byte {:.3g} (beyond the {} KiB private cache: conv {:.3g}, matmul {:.3g}; a "
        "reorder per "
        "byte of its boxes beyond it {:.3g}, from {} reorders); {:.0f} ns between instructions of "
        "a stream\n",
        o.computeCycles, o.transferIssueCycles, o.waitCycles, o.barrierCycles, o.convOutputCycles,
        o.depthwiseRowCycles, o.groupedConvElementCycles, o.weightByteCycles,
        r.target.privateCacheBytes / 1024, o.convFarWeightByteCycles, o.matmulFarWeightByteCycles,
        o.reorderFarByteCycles, r.reorderSamples, r.gapNs);
    if (r.otherLoad)
        std::cout << fmt::format("other work on the machine while measuring: {:.0f}% of the CPUs\n",
                                 100 * *r.otherLoad);
    if (r.corePace)
        std::cout << fmt::format("cores' pace: the slowest core took {:.2f}x the fastest's time "
                                 "for the same copies\n",
                                 1 + r.corePace->spread());
    if (!r.speedChecks.empty()) {
        std::string times;
        for (const auto& [cores, ns] : r.speedChecks)
            times += fmt::format("{}{:.2f} ms on {} core{}", times.empty() ? "" : ", ", ns / 1e6,
                                 cores, cores == 1 ? "" : "s");
        std::cout << "speed check: " << times
                  << " (a convolution and a matrix product; `accuracy` times it again to tell how "
                     "much of an error is the machine's change of speed)\n";
    }
    for (const std::string& note : r.remeasured)
        std::cout << "note: " << note << "\n";
    for (const std::string& warning : r.warnings)
        std::cout << "warning: " << warning << "\n";
}

// True when `path` can be written; leaves no empty file behind (an empty file where `host` looks
// would be a broken calibrated target). Creates the folder of the default place (the config
// directory may not exist yet), never one the user named.
bool writable(const std::string& path) {
    std::error_code ignored;
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty() && path == defaultOutput()) std::filesystem::create_directories(parent, ignored);
    if (auto refused = checkWritableTarget(path)) {
        printDiagnostics({*refused});
        return false;
    }
    return ::access(parent.empty() ? "." : parent.c_str(), W_OK) == 0;
}

int runCalibrate(const CalibrateArgs& args) {
    // Calibration starts from the probed preset, not from an earlier calibrated file.
    auto host = loadTarget(args.target == "host" ? std::string(target::kUncalibratedHost) : args.target, args.quiet);
    if (!host) return kExitBadInput;
    if (host->name != "host") {
        std::cerr << "error: calibrate measures this computer: use --target host (or a host file), not '" << host->name << "'\n";
        return kExitBadInput;
    }
    // Before the measuring: can the result be written at all?
    if (!writable(args.output)) {
        std::cerr << "error: cannot write " << args.output << "\n";
        return kExitFailed;
    }
    calibrate::CalibrateOptions options;
    options.quick = args.quick;
    if (!args.json && !args.quiet) options.progress = [](const std::string& line) { std::cerr << "calibrate: " << line << "\n"; };
    auto report = calibrate::calibrateHost(*host, options);
    if (!report) {
        printDiagnostics(report.diagnostics());
        return kExitFailed;
    }
    // The calibration this one replaces, if any loads: figures far apart are told.
    if (std::error_code ignored; std::filesystem::exists(args.output, ignored))
        if (auto previous = target::loadTargetFile(args.output))
            for (std::string& change : calibrate::changesSincePrevious(*previous, report->target))
                report->warnings.push_back(std::move(change));
    if (auto failed = writeFileAtomically(args.output, target::targetToJson(report->target))) {
        printDiagnostics({*failed});
        return kExitFailed;
    }
    if (!args.samples.empty() && !writeSamples(*report, args.samples)) {
        std::cerr << "error: --samples: cannot write " << args.samples << "\n";
        return kExitFailed;
    }
    if (args.json)
        std::cout << reportJson(*report, args.output).dump(2) << "\n";
    else
        printReport(*report, args.output);
    return kExitOk;
}

} // namespace

void addCalibrateCommand(CLI::App& app, int& exitCode) {
    auto args = std::make_shared<CalibrateArgs>();
    CLI::App* cmd = app.add_subcommand("calibrate", "Measure this computer and fit the host target's timing figures");
    cmd->add_option("-t,--target", args->target, "The host description to calibrate (preset 'host' or a file)")->capture_default_str();
    cmd->add_option("-o,--output", args->output,
                    "Where to write the calibrated target (the default is where --target host finds it)")
        ->capture_default_str();
    cmd->add_flag("--json", args->json, "Print one JSON object instead of text");
    cmd->add_flag("--quick", args->quick, "A few seconds: fewer sizes, repeats and op sizes (less accurate)");
    cmd->add_flag("-q,--quiet", args->quiet, "Do not print warnings or progress");
    cmd->add_option("--samples", args->samples, "Write every transfer sample the fits used to this CSV file");
    cmd->callback([args, &exitCode] { exitCode = runCalibrate(*args); });
}

} // namespace strata::cli
