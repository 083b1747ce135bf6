#include "emulator/WeightRegime.h"

namespace strata::emulator {

std::uint64_t graphWeightBytes(const ir::Graph& graph) {
    std::uint64_t bytes = 0;
    for (const ir::Value& v : graph.values)
        if (v.isConstant && !v.consumers.empty())
            bytes += v.bytes();
    return bytes;
}

bool weightsFitPrivateCache(const target::Target& target, const ir::Graph& graph) {
    return target.privateCacheBytes > 0 && 2 * graphWeightBytes(graph) <= target.privateCacheBytes;
}

const target::Target& withWeightRegime(const target::Target& target, const ir::Graph& graph,
                                       std::optional<target::Target>& storage) {
    const double weightBytes = double(graphWeightBytes(graph));
    const bool hot = weightsFitPrivateCache(target, graph);
    // Per path, the figures its weight reads take instead of weight_reads, if any.
    auto regimeOf =
        [&](const target::TransferPath& p) -> const std::optional<target::ReadFigures>* {
        if (!p.weightReads)
            return nullptr;
        if (hot && p.cachedReads)
            return &p.cachedReads;
        if (p.warmWeightReads && weightBytes <= p.warmWeightBytes)
            return &p.warmWeightReads;
        return nullptr;
    };
    bool any = false;
    for (const target::TransferPath& p : target.paths)
        any = any || regimeOf(p) != nullptr;
    if (!any)
        return target;
    storage = target;
    for (target::TransferPath& p : storage->paths)
        if (const auto* figures = regimeOf(p))
            p.weightReads = *figures;
    return *storage;
}

} // namespace strata::emulator
