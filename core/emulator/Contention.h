#pragma once
// What a transfer competes for, read from the target alone: every shared resource has one
// instance per chip, group or core (its scope); a transfer issued by core c on a path uses the
// instances of c's group/core of the path's resources, a broadcast path uses every instance and
// spreads its bytes evenly over them (the combined read of docs/TARGETS.md).

#include "emulator/BandwidthSharing.h"
#include "target/Target.h"

#include <cstddef>
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

    // Transfers on one path whose routes use the same instances alike (the cores of one group
    // on a group-scoped path, every core on a broadcast) compete identically: one flow class.
    // Classes are numbered 0..flowClasses()-1 in order of (path, first core).
    std::uint32_t flowClass(std::size_t path, int core) const {
        return m_classOf[path * static_cast<std::size_t>(m_cores) + static_cast<std::size_t>(core)];
    }
    std::size_t flowClasses() const { return m_classes; }

  private:
    // perCore: one class per (path, core), identical flows or not.
    void assignFlowClasses(std::size_t paths, bool perCore);

    std::vector<double> m_capacities;
    std::vector<ResourceUse> m_pool;
    std::vector<std::uint32_t> m_routeStart; // per (path, core): offset into m_pool; one extra at the end
    std::vector<std::uint32_t> m_classOf;    // per (path, core)
    std::size_t m_classes = 0;
    int m_cores = 1;
};

} // namespace strata::emulator
