#include "calibrate/CorePace.h"

#include "calibrate/BenchPrograms.h"
#include "calibrate/Fit.h"
#include "ir/Graph.h"
#include "runtime/Runtime.h"

#include <algorithm>
#include <fmt/format.h>

namespace strata::calibrate {

double CorePace::spread() const {
    if (cycles.size() < 2)
        return 0;
    const double fast = cycles[static_cast<std::size_t>(fastest())];
    return fast > 0 ? cycles[static_cast<std::size_t>(slowest())] / fast - 1 : 0;
}

int CorePace::slowest() const {
    return static_cast<int>(std::max_element(cycles.begin(), cycles.end()) - cycles.begin());
}

int CorePace::fastest() const {
    return static_cast<int>(std::min_element(cycles.begin(), cycles.end()) - cycles.begin());
}

Expected<compiler::Program> paceProbeProgram(const target::Target& host) {
    for (const target::TransferPath& path : host.paths)
        if (path.source == host.mainMemory && path.destination == host.workingMemory)
            return transferProgram(host, path.name, kPaceProbeBytes, host.cores(),
                                   kPaceProbeTransfers);
    return error("target '" + host.name + "' has no path from " + host.mainMemory + " to " +
                 host.workingMemory + " to compare its cores' pace with");
}

std::optional<CorePace> paceOf(const compiler::Program& probe, const trace::Trace& measured,
                               double clockHz) {
    std::vector<std::vector<double>> perCore(static_cast<std::size_t>(std::max(probe.cores, 0)));
    for (const trace::Event& e : measured.events)
        if (e.kind == trace::EventKind::Transfer && e.tile != kPrimingTile &&
            e.core < perCore.size())
            perCore[e.core].push_back(double(e.durationPs()));
    CorePace pace;
    for (const std::vector<double>& times : perCore) {
        if (times.empty())
            return std::nullopt;
        pace.cycles.push_back(median(times) * 1e-12 * clockHz);
    }
    return pace;
}

Expected<CorePace> measureCorePace(const target::Target& host) {
    auto probe = paceProbeProgram(host);
    if (!probe)
        return probe.diagnostics();
    static const ir::Graph kNoModel;
    auto result = runtime::run(*probe, host, kNoModel, {}, {.repeat = 2, .timestamps = true});
    if (!result)
        return result.diagnostics();
    if (auto pace = paceOf(*probe, result->trace, host.clockHz))
        return *pace;
    return error("the core pace probe measured no transfer on some core");
}

CorePace medianPace(const std::vector<CorePace>& probes) {
    CorePace out;
    if (probes.empty())
        return out;
    for (std::size_t c = 0; c < probes.front().cycles.size(); ++c) {
        std::vector<double> times;
        for (const CorePace& p : probes)
            if (c < p.cycles.size())
                times.push_back(p.cycles[c]);
        out.cycles.push_back(median(times));
    }
    return out;
}

std::string unevenCoresWarning(const CorePace& pace, std::string_view what,
                               std::string_view consequence) {
    if (pace.spread() <= kUnevenCoresSpread)
        return {};
    return fmt::format("the cores did not run at the same pace while {} measured: core {} took "
                       "{:.2f}x core {}'s time for the same copies (likely another program or "
                       "virtual machine using its CPU); {}",
                       what, pace.slowest(), 1 + pace.spread(), pace.fastest(), consequence);
}

} // namespace strata::calibrate
