#include "trace/RunDelta.h"

#include "trace/TraceSummary.h"

#include <algorithm>
#include <map>

namespace strata::trace {

namespace {

// Span per block id of the blocks that have events (summaries also list ids without any).
std::map<int, std::int64_t> blockTimes(const Trace& trace, const TraceSummary& summary) {
    std::map<int, std::int64_t> present;
    for (const Event& e : trace.events)
        if (e.block >= 0)
            present.emplace(e.block, 0);
    for (const BlockSummary& b : summary.blocks)
        if (auto it = present.find(b.block); it != present.end())
            it->second = b.timePs;
    return present;
}

} // namespace

RunDelta compareRuns(const Trace& a, const Trace& b) {
    const TraceSummary summaryA = summarize(a);
    const TraceSummary summaryB = summarize(b);
    RunDelta out;
    out.totalAPs = summaryA.totalPs;
    out.totalBPs = summaryB.totalPs;
    out.deltaPs = out.totalBPs - out.totalAPs;
    out.relative = out.totalAPs > 0 ? double(out.deltaPs) / double(out.totalAPs) : 0;

    std::map<int, BlockDelta> byBlock;
    for (const auto& [block, ps] : blockTimes(a, summaryA)) {
        byBlock[block].block = block;
        byBlock[block].aPs = ps;
    }
    for (const auto& [block, ps] : blockTimes(b, summaryB)) {
        byBlock[block].block = block;
        byBlock[block].bPs = ps;
    }
    out.blocks.reserve(byBlock.size());
    for (auto& [block, d] : byBlock) {
        d.deltaPs = d.bPs.value_or(0) - d.aPs.value_or(0);
        d.relative = d.aPs && *d.aPs > 0 ? double(d.deltaPs) / double(*d.aPs) : 0;
        out.onlyInA += d.onlyInA();
        out.onlyInB += d.onlyInB();
        out.blocks.push_back(d);
    }
    std::stable_sort(out.blocks.begin(), out.blocks.end(),
                     [](const BlockDelta& x, const BlockDelta& y) { return x.deltaPs > y.deltaPs; });
    return out;
}

} // namespace strata::trace
