#include "emulator/CachedReads.h"

#include "emulator/RecentRegions.h"

#include <algorithm>

namespace strata::emulator {
namespace {

// A load is cached when this share of its region is (in tenths): a load half of whose bytes
// the other core stored runs at the other core's pace, as one all of whose bytes it stored.
constexpr std::int64_t kCachedTenths = 9;

} // namespace

void markCachedReads(const compiler::Program& program, const target::Target& target,
                     std::vector<Step>& steps) {
    const bool any = std::any_of(target.paths.begin(), target.paths.end(), [](const auto& p) {
        return p.cachedReads.has_value() || p.weightReads.has_value();
    });
    const target::MemorySpace* working = target.findMemory(target.workingMemory);
    if (!any || !working)
        return;
    forEachMainMemoryTransfer(
        program, target.mainMemory, working->capacityBytes,
        [&](compiler::InstrId id, const compiler::Transfer& t, const RecentRegions& recent) {
            Step& step = steps[id];
            const target::TransferPath& path = target.paths[step.path];
            const std::int64_t wanted =
                t.source.memory == target.mainMemory ? tiling::regionElements(t.region) : 0;
            if (wanted <= 0 || !((step.read == target::ReadKind::Other && path.cachedReads) ||
                                 step.read == target::ReadKind::Weight))
                return;
            const RecentRegions::Found found = recent.find(t.value.index, t.region);
            const double bytes = double(t.bytes);
            if (step.read == target::ReadKind::Other &&
                10 * found.stored >= kCachedTenths * wanted) {
                step.read = target::ReadKind::Cached;
                step.amount += path.fixedCyclesFor(target::ReadKind::Cached, bytes) -
                               path.fixedCyclesFor(target::ReadKind::Other, bytes);
            } else if (step.read == target::ReadKind::Weight &&
                       10 * found.moved >= kCachedTenths * wanted) {
                // A weight tile this core read a moment ago (the next spatial tile of the same
                // convolution) is in its cache, not a cold read: it is read like other data.
                step.read = target::ReadKind::Other;
                step.amount += path.fixedCyclesFor(target::ReadKind::Other, bytes) -
                               path.fixedCyclesFor(target::ReadKind::Weight, bytes);
            }
        });
}

} // namespace strata::emulator
