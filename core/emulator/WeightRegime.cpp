#include "emulator/WeightRegime.h"

namespace strata::emulator {

std::uint64_t graphWeightBytes(const ir::Graph& graph) {
    std::uint64_t bytes = 0;
    for (const ir::Value& v : graph.values)
        if (v.isConstant && !v.consumers.empty())
            bytes += v.bytes();
    return bytes;
}

const target::Target& withWeightRegime(const target::Target& target, const ir::Graph& graph,
                                       std::optional<target::Target>& storage) {
    bool anyWarm = false;
    for (const target::TransferPath& p : target.paths)
        anyWarm = anyWarm || (p.warmWeightReads && p.weightReads);
    if (!anyWarm)
        return target;
    const double weightBytes = double(graphWeightBytes(graph));
    bool fits = false;
    for (const target::TransferPath& p : target.paths)
        fits = fits || (p.warmWeightReads && p.weightReads && weightBytes <= p.warmWeightBytes);
    if (!fits)
        return target;
    storage = target;
    for (target::TransferPath& p : storage->paths)
        if (p.warmWeightReads && p.weightReads && weightBytes <= p.warmWeightBytes)
            p.weightReads = p.warmWeightReads;
    return *storage;
}

} // namespace strata::emulator
