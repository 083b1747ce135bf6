#include "emulator/SharedReads.h"

#include "emulator/BarrierSegments.h"
#include "emulator/RecentRegions.h"
#include "emulator/TransferRows.h"

#include <algorithm>
#include <unordered_map>

namespace strata::emulator {
namespace {

// A load reads stored rows when this share of its region is (in tenths), as CachedReads.h.
constexpr std::int64_t kStoredTenths = 9;

struct Stored {
    const tiling::Region* region;
    std::uint32_t core;
    std::size_t segment;      // barriers its core had passed when it stored
    std::uint64_t movedAfter; // the storing core's bytes moved just after the store
};

} // namespace

void markSharedReads(const compiler::Program& program, const target::Target& target,
                     std::vector<Step>& steps) {
    const target::MemorySpace* working = target.findMemory(target.workingMemory);
    if (!working || program.streams.size() < 2 ||
        std::none_of(target.paths.begin(), target.paths.end(),
                     [](const auto& p) { return p.sharedReads.has_value(); }))
        return;
    const std::uint64_t capacity = working->capacityBytes;
    std::vector<std::uint64_t> moved(program.streams.size(), 0);
    // Per tensor, its stores still within reach (the gone ones dropped when the tensor is read).
    std::unordered_map<std::uint32_t, std::vector<Stored>> recent;
    forEachTransferInBarrierOrder(program, [&](compiler::InstrId id, const compiler::Transfer& t,
                                               std::uint32_t c, std::size_t s) {
        const bool load = t.source.memory == target.mainMemory;
        const bool store = t.destination.memory == target.mainMemory;
        Step& step = steps[id];
        const target::TransferPath& path = target.paths[step.path];
        if (load && t.value.valid() && step.read == target::ReadKind::Other && path.sharedReads &&
            transferRows(t) == 1) {
            std::vector<Stored>& stores = recent[t.value.index];
            std::erase_if(stores,
                          [&](const Stored& r) { return moved[r.core] - r.movedAfter > capacity; });
            std::int64_t own = 0, other = 0;
            for (const Stored& r : stores)
                if (r.core == c || r.segment < s)
                    (r.core == c ? own : other) += overlapElements(*r.region, t.region);
            const std::int64_t wanted = tiling::regionElements(t.region);
            if (other > 0 && 10 * (own + other) >= kStoredTenths * wanted) {
                const double bytes = double(t.bytes);
                step.read = target::ReadKind::Shared;
                step.amount += path.fixedCyclesFor(target::ReadKind::Shared, bytes) -
                               path.fixedCyclesFor(target::ReadKind::Other, bytes);
            }
        }
        moved[c] += t.bytes;
        if (store && t.value.valid())
            recent[t.value.index].push_back({&t.region, c, s, moved[c]});
    });
}

} // namespace strata::emulator
