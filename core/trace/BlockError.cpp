#include "trace/BlockError.h"

#include <unordered_map>

namespace strata::trace {

double relativeError(double predicted, double measured) {
    return measured > 0 ? (predicted - measured) / measured : 0.0;
}

std::vector<BlockError> blockErrors(const TraceSummary& predicted, const TraceSummary& measured) {
    std::unordered_map<int, std::int64_t> measuredSpans;
    for (const BlockSummary& b : measured.blocks)
        measuredSpans.emplace(b.block, b.timePs);
    std::vector<BlockError> out;
    for (const BlockSummary& b : predicted.blocks) {
        const auto found = measuredSpans.find(b.block);
        if (found == measuredSpans.end())
            continue;
        out.push_back({b.block, b.timePs, found->second,
                       relativeError(double(b.timePs), double(found->second))});
    }
    return out;
}

} // namespace strata::trace
