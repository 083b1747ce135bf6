#include "emulator/CachedReads.h"

#include "emulator/RecentRegions.h"
#include "emulator/RecentSpans.h"
#include "emulator/TransferRows.h"

#include <algorithm>

namespace strata::emulator {
namespace {

// A load is cached when this share of its region is (in tenths): a load half of whose bytes
// the other core stored runs at the other core's pace, as one all of whose bytes it stored.
constexpr std::int64_t kCachedTenths = 9;

// The extra cycles of a cached transfer whose bytes lie farther back than the core's private
// cache: every byte at the kind's spill rate (the rate of bytes past that cache, target::Ramp),
// not only those past spillBytes. None without a spill.
double farCycles(const target::TransferPath& path, target::ReadKind kind, double bytes) {
    const target::Ramp& ramp = path.rampFor(kind);
    const double bandwidth = path.bytesPerCycleFor(kind);
    if (!(ramp.spillBytes > 0 && ramp.spillBytesPerCycle > 0 && bandwidth > 0))
        return 0;
    const double near = std::min(bytes, ramp.spillBytes);
    return std::max(0.0, near / ramp.spillBytesPerCycle - near / bandwidth);
}

// Marks the stores into lines their core still holds (CachedWrites): by address, over each
// core's stream in order, counting every byte it moves as forEachMainMemoryTransfer does. A
// store into lines the core moved farther back than its private cache (`privateBytes`, when
// smaller than `capacity`) finds them in the shared cache and pays farCycles: on the host a
// store into lines in the L2 ran at 40-49 GB/s, into lines the L2 had given back to the L3 at
// 9-12 GB/s (Xeon, 2 MiB L2; docs/ACCURACY.md, "A new machine: stores into cold lines and
// the shared cache").
void markCachedWrites(const compiler::Program& program, const target::Target& target,
                      std::uint64_t capacity, std::uint64_t privateBytes,
                      std::vector<Step>& steps) {
    const bool splitPrivate = privateBytes > 0 && privateBytes < capacity;
    for (const std::vector<compiler::InstrId>& stream : program.streams) {
        std::uint64_t moved = 0;
        RecentSpans recent(capacity);
        RecentSpans near(splitPrivate ? privateBytes : capacity);
        for (const compiler::InstrId id : stream) {
            const auto* t = std::get_if<compiler::Transfer>(&program.instructions[id].body);
            if (!t)
                continue;
            const bool load = t->source.memory == target.mainMemory;
            const bool store = t->destination.memory == target.mainMemory;
            if (load || store) {
                const ByteSpan span = transferSpan(*t, load);
                Step& step = steps[id];
                const target::TransferPath& path = target.paths[step.path];
                if (store && !load && path.cachedWrites && step.read == target::ReadKind::Other &&
                    transferRows(*t) == 1 &&
                    10 * recent.residentShare(span.begin, span.end, moved) >= kCachedTenths) {
                    const double bytes = double(t->bytes);
                    step.read = target::ReadKind::CachedWrite;
                    step.reuseBytes = double(recent.distance(span.begin, span.end, moved));
                    step.amount += path.fixedCyclesFor(target::ReadKind::CachedWrite, bytes) -
                                   path.fixedCyclesFor(target::ReadKind::Other, bytes);
                    if (!path.cachedWrites->byReuseDistance.empty()) {
                        if (privateBytes > 0 && step.reuseBytes > double(privateBytes))
                            step.amount += target::reuseDistanceExtraCycles(*path.cachedWrites,
                                                                            bytes, step.reuseBytes);
                    } else if (splitPrivate &&
                               10 * near.residentShare(span.begin, span.end, moved) < kCachedTenths)
                        step.amount += farCycles(path, target::ReadKind::CachedWrite, bytes);
                }
                recent.touch(span.begin, span.end, moved + t->bytes);
                if (splitPrivate)
                    near.touch(span.begin, span.end, moved + t->bytes);
            }
            moved += t->bytes;
        }
    }
}

// A cached load whose bytes the core moved farther back than its private cache holds (the
// host's L2) reads them from the shared cache: every byte at the cached figures' spill rate, the
// rate of a transfer's bytes past the private cache (target::Ramp), not only those past
// spillBytes. Measured on the host, such loads ran at 0.017-0.019 ns per byte against 0.010
// for those still in the L2 (docs/ACCURACY.md, "Stores into held lines, cached reads from the
// shared cache, huge pages").
void chargeFarCachedReads(const compiler::Program& program, const target::Target& target,
                          std::vector<Step>& steps) {
    forEachMainMemoryTransfer(
        program, target.mainMemory, target.privateCacheBytes,
        [&](compiler::InstrId id, const compiler::Transfer& t, const RecentRegions& recent) {
            Step& step = steps[id];
            const target::TransferPath& path = target.paths[step.path];
            if (step.read != target::ReadKind::Cached || !path.cachedReads->byReuseDistance.empty())
                return; // priced by its reuse distance instead
            const std::int64_t wanted = tiling::regionElements(t.region);
            if (10 * recent.find(t.value.index, t.region).moved >= kCachedTenths * wanted)
                return;
            step.amount += farCycles(path, target::ReadKind::Cached, double(t.bytes));
        });
}

} // namespace

target::Target withEveryKindPriced(const target::Target& target) {
    target::Target out = target;
    auto isMain = [&](const std::string& memory) {
        const target::MemorySpace* space = target.findMemory(memory);
        return space && space->kind == target::MemoryKind::Dram;
    };
    for (target::TransferPath& p : out.paths) {
        const target::ReadFigures own{p.bytesPerCycle, p.latencyCycles, p.ramp};
        if (isMain(p.source)) {
            if (!p.weightReads)
                p.weightReads = own;
            if (!p.cachedReads)
                p.cachedReads = own;
            if (!p.sharedReads)
                p.sharedReads = own;
        } else if (isMain(p.destination) && !p.cachedWrites) {
            p.cachedWrites = own;
        }
    }
    return out;
}

void markCachedReads(const compiler::Program& program, const target::Target& target,
                     std::vector<Step>& steps) {
    const target::MemorySpace* working = target.findMemory(target.workingMemory);
    if (!working)
        return;
    if (std::any_of(target.paths.begin(), target.paths.end(),
                    [](const auto& p) { return p.cachedWrites.has_value(); }))
        markCachedWrites(program, target, working->capacityBytes, target.privateCacheBytes, steps);
    const bool any = std::any_of(target.paths.begin(), target.paths.end(), [](const auto& p) {
        return p.cachedReads.has_value() || p.weightReads.has_value();
    });
    if (!any)
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
            // Stored by the core, or loaded or stored as one region: a region the core read a
            // moment ago (DenseNet's concatenated features, read again by every layer of a block)
            // is in its cache as much as one it wrote. (A tensor is stored before it is read, so
            // no other core's store makes what this one loaded stale.)
            const bool moved = 10 * found.stored >= kCachedTenths * wanted ||
                               10 * found.largest >= kCachedTenths * wanted;
            if (transferRows(t) == 1 && moved && path.cachedReads) {
                const double before = path.fixedCyclesFor(step.read, bytes);
                step.read = target::ReadKind::Cached;
                step.reuseBytes = double(found.distance);
                step.amount += path.fixedCyclesFor(target::ReadKind::Cached, bytes) - before;
                if (target.privateCacheBytes > 0 &&
                    step.reuseBytes > double(target.privateCacheBytes))
                    step.amount +=
                        target::reuseDistanceExtraCycles(*path.cachedReads, bytes, step.reuseBytes);
            } else if (step.read == target::ReadKind::Weight && moved) {
                // A weight tile of rows this core read a moment ago (the next spatial tile of the
                // same convolution) is in its cache, not a cold read: it is read like other data.
                step.read = target::ReadKind::Other;
                step.amount += path.fixedCyclesFor(target::ReadKind::Other, bytes) -
                               path.fixedCyclesFor(target::ReadKind::Weight, bytes);
            }
        });
    if (target.privateCacheBytes > 0 && target.privateCacheBytes < working->capacityBytes)
        chargeFarCachedReads(program, target, steps);
}

} // namespace strata::emulator
