#include "emulator/BandwidthSharing.h"

#include <algorithm>
#include <limits>

namespace strata::emulator {

namespace {
// Relative slack when deciding which constraints the current level reached: equal bottlenecks
// computed along different arithmetic paths must freeze together.
constexpr double kSlack = 1e-12;
} // namespace

BandwidthSharing::BandwidthSharing(std::vector<double> capacities)
    : m_capacity(std::move(capacities)), m_used(m_capacity.size(), 0), m_weight(m_capacity.size(), 0),
      m_full(m_capacity.size(), 0) {}

void BandwidthSharing::share(std::span<const FlowDemand> flows, std::span<double> rates) {
    const std::size_t n = flows.size();
    m_frozen.assign(n, 0);
    m_touched.clear();
    for (const FlowDemand& f : flows)
        for (const ResourceUse& u : f.uses) {
            if (m_weight[u.instance] == 0 && m_used[u.instance] == 0) m_touched.push_back(u.instance);
            m_weight[u.instance] += u.weight;
        }
    std::size_t unfrozen = n;
    while (unfrozen > 0) {
        double level = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < n; ++i)
            if (!m_frozen[i]) level = std::min(level, flows[i].cap);
        for (std::uint32_t r : m_touched)
            if (m_weight[r] > 0) level = std::min(level, std::max(0.0, m_capacity[r] - m_used[r]) / m_weight[r]);
        const double reach = level * (1 + kSlack);
        for (std::uint32_t r : m_touched)
            m_full[r] = m_weight[r] > 0 && std::max(0.0, m_capacity[r] - m_used[r]) / m_weight[r] <= reach;
        for (std::size_t i = 0; i < n; ++i) {
            if (m_frozen[i]) continue;
            bool bottleneck = flows[i].cap <= reach;
            for (const ResourceUse& u : flows[i].uses) bottleneck = bottleneck || m_full[u.instance];
            if (!bottleneck) continue;
            m_frozen[i] = 1;
            --unfrozen;
            rates[i] = level;
            for (const ResourceUse& u : flows[i].uses) {
                m_used[u.instance] += u.weight * level;
                m_weight[u.instance] -= u.weight;
            }
        }
        // Weights drift from zero by rounding; a resource with no unfrozen flow has none.
        for (std::uint32_t r : m_touched)
            if (m_weight[r] < 1e-12) m_weight[r] = 0;
    }
    for (std::uint32_t r : m_touched) {
        m_used[r] = 0;
        m_weight[r] = 0;
        m_full[r] = 0;
    }
}

} // namespace strata::emulator
