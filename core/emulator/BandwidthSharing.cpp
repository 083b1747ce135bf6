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

bool BandwidthSharing::shareOneInstance(std::span<const FlowDemand> flows, std::span<double> rates) {
    if (flows.empty() || flows[0].uses.size() != 1) return false;
    const std::uint32_t r = flows[0].uses[0].instance;
    for (const FlowDemand& f : flows)
        if (f.uses.size() != 1 || f.uses[0].instance != r || f.uses[0].weight != 1.0) return false;
    // Below, share()'s steps and arithmetic, operation for operation: the rates are the same bits.
    const std::size_t n = flows.size();
    m_frozen.assign(n, 0);
    const double capacity = m_capacity[r];
    double used = 0;
    double weight = 0;
    for (const FlowDemand& f : flows) weight += f.members;
    std::size_t unfrozen = n;
    while (unfrozen > 0) {
        double level = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < n; ++i)
            if (!m_frozen[i]) level = std::min(level, flows[i].cap);
        if (weight > 0) level = std::min(level, std::max(0.0, capacity - used) / weight);
        const double reach = level * (1 + kSlack);
        const bool full = weight > 0 && std::max(0.0, capacity - used) / weight <= reach;
        for (std::size_t i = 0; i < n; ++i) {
            if (m_frozen[i] || !(flows[i].cap <= reach || full)) continue;
            m_frozen[i] = 1;
            --unfrozen;
            rates[i] = level;
            used += flows[i].members * level;
            weight -= flows[i].members;
        }
        if (weight < 1e-12) weight = 0;
    }
    return true;
}

void BandwidthSharing::share(std::span<const FlowDemand> flows, std::span<double> rates) {
    if (shareOneInstance(flows, rates)) return;
    const std::size_t n = flows.size();
    m_frozen.assign(n, 0);
    m_touched.clear();
    for (const FlowDemand& f : flows)
        for (const ResourceUse& u : f.uses) {
            if (m_weight[u.instance] == 0 && m_used[u.instance] == 0) m_touched.push_back(u.instance);
            m_weight[u.instance] += u.weight * f.members;
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
                m_used[u.instance] += u.weight * flows[i].members * level;
                m_weight[u.instance] -= u.weight * flows[i].members;
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
