#include "target/Target.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace strata::target {

std::string_view memoryKindName(MemoryKind kind) {
    switch (kind) {
    case MemoryKind::Dram: return "dram";
    case MemoryKind::Sram: return "sram";
    }
    return "dram";
}

std::string_view scopeName(Scope scope) {
    switch (scope) {
    case Scope::Chip: return "chip";
    case Scope::Group: return "group";
    case Scope::Core: return "core";
    }
    return "chip";
}

double rampExtraCycles(const Ramp& ramp, double bandwidthBytesPerCycle, double bytes) {
    if (!(bandwidthBytesPerCycle > 0) || !(bytes > 0))
        return 0;
    double extra = 0;
    if (ramp.bytes > 0 && ramp.bytesPerCycle > 0) {
        const double ramped = std::min(bytes, ramp.bytes);
        extra += std::max(0.0, ramped / ramp.bytesPerCycle - ramped / bandwidthBytesPerCycle);
    }
    if (ramp.spillBytes > 0 && ramp.spillBytesPerCycle > 0 && bytes > ramp.spillBytes) {
        const double spilled = bytes - ramp.spillBytes;
        extra +=
            std::max(0.0, spilled / ramp.spillBytesPerCycle - spilled / bandwidthBytesPerCycle);
    }
    return extra;
}

double reuseDistanceExtraCycles(const ReadFigures& figures, double bytes, double distance) {
    const std::vector<DistanceRate>& points = figures.byReuseDistance;
    if (points.empty() || !(figures.bytesPerCycle > 0) || !(bytes > 0))
        return 0;
    auto costOf = [](const DistanceRate& p) { return 1 / p.bytesPerCycle; };
    double cost = costOf(points.front());
    if (distance >= points.back().bytes) {
        cost = costOf(points.back());
    } else if (distance > points.front().bytes) {
        const auto next =
            std::upper_bound(points.begin(), points.end(), distance,
                             [](double d, const DistanceRate& p) { return d < p.bytes; });
        const DistanceRate& lo = *std::prev(next);
        const double t = std::log2(distance / lo.bytes) / std::log2(next->bytes / lo.bytes);
        cost = costOf(lo) + t * (costOf(*next) - costOf(lo));
    }
    const double slowed =
        figures.ramp.spillBytes > 0 ? std::min(bytes, figures.ramp.spillBytes) : bytes;
    return std::max(0.0, slowed * (cost - 1 / figures.bytesPerCycle));
}

int Target::instancesOf(Scope scope) const {
    switch (scope) {
    case Scope::Chip: return 1;
    case Scope::Group: return groups;
    case Scope::Core: return cores();
    }
    return 1;
}

namespace {
template <class T> const T* findNamed(const std::vector<T>& items, std::string_view name) {
    auto it =
        std::find_if(items.begin(), items.end(), [&](const T& item) { return item.name == name; });
    return it == items.end() ? nullptr : &*it;
}
} // namespace

const MemorySpace* Target::findMemory(std::string_view memoryName) const {
    return findNamed(memories, memoryName);
}

const SharedResource* Target::findResource(std::string_view resourceName) const {
    return findNamed(resources, resourceName);
}

const TransferPath* Target::findPath(std::string_view pathName) const {
    return findNamed(paths, pathName);
}

const TransferPath* Target::pathBetween(std::string_view from, std::string_view to) const {
    auto it = std::find_if(paths.begin(), paths.end(), [&](const TransferPath& path) {
        return !path.broadcast && path.source == from && path.destination == to;
    });
    return it == paths.end() ? nullptr : &*it;
}

std::uint64_t Target::workingMemoryBytes() const {
    const MemorySpace* memory = findMemory(workingMemory);
    return memory ? memory->capacityBytes : 0;
}

} // namespace strata::target
