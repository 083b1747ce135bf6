#include "emulator/Contention.h"

#include <algorithm>

namespace strata::emulator {

Contention::Contention(const target::Target& target) : m_cores(std::max(1, target.cores())) {
    std::vector<std::uint32_t> firstInstance;
    for (const target::SharedResource& r : target.resources) {
        firstInstance.push_back(static_cast<std::uint32_t>(m_capacities.size()));
        m_capacities.insert(m_capacities.end(), static_cast<std::size_t>(target.instancesOf(r.scope)), r.bytesPerCycle);
    }
    const int perGroup = std::max(1, target.coresPerGroup);
    for (const target::TransferPath& path : target.paths) {
        for (int core = 0; core < m_cores; ++core) {
            m_routeStart.push_back(static_cast<std::uint32_t>(m_pool.size()));
            for (const std::string& name : path.resources) {
                const target::SharedResource* r = target.findResource(name);
                if (!r) continue; // TargetValidation rejects unknown names; stay safe regardless
                const std::size_t index = static_cast<std::size_t>(r - target.resources.data());
                const int instances = target.instancesOf(r->scope);
                if (path.broadcast) {
                    for (int i = 0; i < instances; ++i)
                        m_pool.push_back({firstInstance[index] + static_cast<std::uint32_t>(i), 1.0 / instances});
                    continue;
                }
                const int instance = r->scope == target::Scope::Chip ? 0 : r->scope == target::Scope::Group ? core / perGroup : core;
                m_pool.push_back({firstInstance[index] + static_cast<std::uint32_t>(instance), 1.0});
            }
        }
    }
    m_routeStart.push_back(static_cast<std::uint32_t>(m_pool.size()));
    // A path slowed by other cores' transfers (ConcurrentSlowdown.h) gives each core its own
    // rate: its cores' transfers are no longer identical flows.
    const bool perCore = std::any_of(target.paths.begin(), target.paths.end(),
                                     [](const auto& p) { return !p.concurrentSlowdown.empty(); });
    assignFlowClasses(target.paths.size(), perCore);
}

void Contention::assignFlowClasses(std::size_t paths, bool perCore) {
    const auto sameUses = [](std::span<const ResourceUse> a, std::span<const ResourceUse> b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                          [](const ResourceUse& x, const ResourceUse& y) { return x.instance == y.instance && x.weight == y.weight; });
    };
    for (std::size_t path = 0; path < paths; ++path) {
        const std::size_t first = m_classOf.size();
        for (int core = 0; core < m_cores; ++core) {
            std::uint32_t cls = static_cast<std::uint32_t>(m_classes);
            for (int earlier = 0; earlier < core && !perCore; ++earlier)
                if (sameUses(route(path, core), route(path, earlier))) {
                    cls = m_classOf[first + static_cast<std::size_t>(earlier)];
                    break;
                }
            if (cls == m_classes) ++m_classes;
            m_classOf.push_back(cls);
        }
    }
}

std::span<const ResourceUse> Contention::route(std::size_t path, int core) const {
    const std::size_t slot = path * static_cast<std::size_t>(m_cores) + static_cast<std::size_t>(core);
    return std::span<const ResourceUse>(m_pool).subspan(m_routeStart[slot], m_routeStart[slot + 1] - m_routeStart[slot]);
}

} // namespace strata::emulator
