#pragma once
// What a transfer competes for, read from the target alone: every shared resource has one
// instance per chip, group or core (its scope); a transfer issued by core c on a path uses the
// instances of c's group/core of the path's resources, a broadcast path uses every instance and
// spreads its bytes evenly over them (the combined read of docs/TARGETS.md).

#include "emulator/BandwidthSharing.h"
#include "target/Target.h"

#include <cstdint>
#include <span>
#include <vector>

namespace strata::emulator {

class Contention {
  public:
    explicit Contention(const target::Target& target);

    // Bandwidth of every resource instance, bytes/cycle, indexed as ResourceUse::instance.
    const std::vector<double>& capacities() const { return m_capacities; }
    // The resource instances a transfer on `path` (index into target.paths) issued by `core` uses.
    std::span<const ResourceUse> route(std::size_t path, int core) const;

  private:
    std::vector<double> m_capacities;
    std::vector<ResourceUse> m_pool;
    std::vector<std::uint32_t> m_routeStart; // per (path, core): offset into m_pool; one extra at the end
    int m_cores = 1;
};

} // namespace strata::emulator
