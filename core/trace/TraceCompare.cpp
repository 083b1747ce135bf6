#include "trace/TraceCompare.h"

#include "trace/BlockError.h"
#include "trace/TraceSummary.h"
#include "trace/TraceValidate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace strata::trace {
namespace {

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    const std::size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
    const double upper = values[mid];
    if (values.size() % 2) return upper;
    const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
    return (lower + upper) / 2;
}

} // namespace

Expected<TraceComparison> compareTraces(const Trace& emulated, const Trace& measured, const CompareOptions& options) {
    TraceComparison out;
    if (!emulated.modelHash.empty() && !measured.modelHash.empty() && emulated.modelHash != measured.modelHash) {
        std::string message = fmt::format("the traces are of different models ('{}' hash {}, '{}' hash {}): their ids name "
                                          "different instructions",
                                          emulated.modelName, emulated.modelHash, measured.modelName, measured.modelHash);
        if (!options.allowModelMismatch) return error(message + " (compare them anyway with --force)");
        out.warnings.push_back(warning(message));
    }

    std::unordered_map<std::uint32_t, std::size_t> measuredById;
    measuredById.reserve(measured.events.size());
    for (std::size_t i = 0; i < measured.events.size(); ++i) measuredById.emplace(measured.events[i].id, i);

    std::vector<Diagnostic> mismatches;
    std::vector<double> absErrors[4];
    for (const Event& e : emulated.events) {
        auto found = measuredById.find(e.id);
        if (found == measuredById.end()) {
            ++out.emulatedOnly;
            continue;
        }
        const Event& m = measured.events[found->second];
        if (m.kind != e.kind || m.core != e.core) {
            if (mismatches.size() < 10)
                mismatches.push_back(error(fmt::format("{} is a {} on core {} in the first trace but a {} on core {} in the "
                                                       "second: the traces are not of the same program",
                                                       instructionName(e.id), eventKindName(e.kind), e.core,
                                                       eventKindName(m.kind), m.core)));
            continue;
        }
        EventComparison c{e.id, e.kind, e.core, e.block, e.durationPs(), m.durationPs(),
                          relativeError(double(e.durationPs()), double(m.durationPs()))};
        if (c.measuredPs > 0) absErrors[static_cast<int>(e.kind)].push_back(std::fabs(c.error));
        out.events.push_back(c);
    }
    if (!mismatches.empty()) return mismatches;
    out.matched = out.events.size();
    out.measuredOnly = measured.events.size() - out.matched;
    if (out.matched == 0)
        return error(fmt::format("no event ids in common ({} and {} events): the traces are not of the same program",
                                 emulated.events.size(), measured.events.size()));
    if (emulated.target != measured.target)
        out.warnings.push_back(warning(fmt::format("the traces name different targets ('{}' and '{}'); {} of {} ids matched",
                                                   emulated.target, measured.target, out.matched,
                                                   std::max(emulated.events.size(), measured.events.size()))));
    if (out.emulatedOnly || out.measuredOnly)
        out.warnings.push_back(warning(fmt::format("{} ids matched; {} events only in the first trace, {} only in the second",
                                                   out.matched, out.emulatedOnly, out.measuredOnly)));

    for (int k = 0; k < 4; ++k) {
        out.compared[k] = absErrors[k].size();
        out.medianAbsError[k] = median(absErrors[k]);
    }
    out.transferMedianAbsError = out.medianAbsError[static_cast<int>(EventKind::Transfer)];

    const TraceSummary a = summarize(emulated);
    const TraceSummary b = summarize(measured);
    out.totalEmulatedPs = a.totalPs;
    out.totalMeasuredPs = b.totalPs;
    out.totalError = relativeError(double(a.totalPs), double(b.totalPs));
    for (const BlockError& e : blockErrors(a, b)) out.blocks.push_back({e.block, e.predictedPs, e.measuredPs, e.error});
    return out;
}

} // namespace strata::trace
