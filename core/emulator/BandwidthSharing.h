#pragma once
// How concurrent transfers share bandwidth: max-min fair ("water-filling", processor sharing
// over several resources). Every transfer has its own cap (its path's rate) and uses some
// resource instances, each with a weight (1, or 1/k for a broadcast spread over k instances).
// All rates rise together until a transfer reaches its cap or a resource is full; those freeze
// and the rest keep rising. The result: no resource is over capacity, and no transfer could go
// faster without slowing one that is no faster than it.
//
// Identical flows (same cap, same uses) always get the same rate, so a demand may stand for
// several of them (`members`): it is shared as that many flows, and its rate is each one's.

#include <cstdint>
#include <span>
#include <vector>

namespace strata::emulator {

struct ResourceUse {
    std::uint32_t instance = 0;   // index into the capacities
    double weight = 1;            // bytes of the resource per byte of the transfer
};

struct FlowDemand {
    double cap = 0;               // bytes/cycle on its own
    std::span<const ResourceUse> uses;
    double members = 1;           // identical flows it stands for
};

// Reusable scratch space, so sharing after every event allocates nothing.
class BandwidthSharing {
  public:
    explicit BandwidthSharing(std::vector<double> capacities); // bytes/cycle per resource instance

    // Rates (bytes/cycle) for `flows`, each member's, written to `rates` (same size). Every cap
    // and every count of members must be positive.
    void share(std::span<const FlowDemand> flows, std::span<double> rates);

    std::size_t instances() const { return m_capacity.size(); }

  private:
    // The common case, every flow on the same one instance with weight 1 (a plain path's one
    // resource): the same water-filling with that instance's sums in two scalars. False when
    // the flows are not all on one instance.
    bool shareOneInstance(std::span<const FlowDemand> flows, std::span<double> rates);

    std::vector<double> m_capacity;
    std::vector<double> m_used;       // by frozen flows
    std::vector<double> m_weight;     // of flows not yet frozen
    std::vector<std::uint8_t> m_full;
    std::vector<std::uint32_t> m_touched;
    std::vector<std::uint8_t> m_frozen;
};

} // namespace strata::emulator
