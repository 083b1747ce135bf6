#include "analysis/MeasuredMicrobench.h"

#include "analysis/TransferStats.h"
#include "runtime/Runtime.h"

#include <algorithm>

namespace strata::analysis {
namespace {

Expected<double> measuredGBps(const target::Target& host, const std::vector<std::string>& kinds, std::uint64_t bytes,
                              const emulator::MicrobenchSpec& spec, int repeat) {
    auto program = emulator::microbenchProgram(host, kinds, bytes, spec.inFlight, spec.transfersPerKind);
    if (!program) return program.takeDiagnostics();
    static const ir::Graph kNoModel;
    auto run = runtime::run(*program, host, kNoModel, {}, {.repeat = repeat, .timestamps = false});
    if (!run) return run.takeDiagnostics();
    if (run->totalsNs.empty()) return 0.0;
    std::vector<double> totals = run->totalsNs;
    std::sort(totals.begin(), totals.end());
    const double median = totals[(totals.size() - 1) / 2];
    return median > 0 ? double(program->transferredBytes()) / median : 0.0; // bytes/ns = GB/s
}

} // namespace

Expected<emulator::MicrobenchResult> measureMicrobench(const target::Target& host, const emulator::MicrobenchSpec& spec,
                                                       int repeat, const std::function<bool()>& proceed) {
    // As `strata-cli microbench --measure`: measuring another machine's paths here means nothing.
    if (host.name != "host")
        return error("the microbenchmark runs on this computer: target '" + host.name + "' is not the host");
    if (repeat < 1) return error("repeat must be at least 1");
    if (spec.wordBytes == 0) return error("word size must be at least one byte");
    emulator::MicrobenchResult result;
    result.kinds = spec.kinds;
    for (const std::uint64_t words : spec.sizes) {
        if (proceed && !proceed()) break;
        emulator::MicrobenchRow row;
        row.words = words;
        row.bytes = words * spec.wordBytes;
        auto mixed = measuredGBps(host, spec.kinds, row.bytes, spec, repeat);
        if (!mixed) return mixed.takeDiagnostics();
        row.mixedGBps = *mixed;
        for (const std::string& kind : spec.kinds) {
            auto alone = measuredGBps(host, {kind}, row.bytes, spec, repeat);
            if (!alone) return alone.takeDiagnostics();
            row.aloneGBps.push_back(*alone);
        }
        row.idealGBps = harmonicMean(row.aloneGBps);
        result.rows.push_back(std::move(row));
    }
    return result;
}

} // namespace strata::analysis
