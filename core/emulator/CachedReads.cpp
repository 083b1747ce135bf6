#include "emulator/CachedReads.h"

#include <algorithm>
#include <deque>

namespace strata::emulator {
namespace {

// A load is cached when this share of its region is (in tenths): a load half of whose bytes
// the other core stored runs at the other core's pace, as one all of whose bytes it stored.
constexpr std::int64_t kCachedTenths = 9;

// A region a core stored, and the core's count of moved bytes just after the store.
struct Stored {
    std::uint32_t value;
    const tiling::Region* region;
    std::uint64_t movedAfter;
};

std::int64_t overlap(const tiling::Region& a, const tiling::Region& b) {
    if (a.size() != b.size()) return 0;
    std::int64_t elements = 1;
    for (std::size_t d = 0; d < a.size(); ++d) {
        elements *= std::max<std::int64_t>(0, std::min(a[d].end, b[d].end) - std::max(a[d].begin, b[d].begin));
        if (elements == 0) return 0;
    }
    return elements;
}

} // namespace

void markCachedReads(const compiler::Program& program, const target::Target& target, std::vector<Step>& steps) {
    const bool any = std::any_of(target.paths.begin(), target.paths.end(), [](const auto& p) { return p.cachedReads.has_value(); });
    const target::MemorySpace* working = target.findMemory(target.workingMemory);
    if (!any || !working) return;
    const std::uint64_t capacity = working->capacityBytes;
    for (const std::vector<compiler::InstrId>& stream : program.streams) {
        std::uint64_t moved = 0;
        std::deque<Stored> recent; // oldest first
        for (const compiler::InstrId id : stream) {
            const auto* t = std::get_if<compiler::Transfer>(&program.instructions[id].body);
            if (!t) continue;
            Step& step = steps[id];
            const target::TransferPath& path = target.paths[step.path];
            while (!recent.empty() && moved - recent.front().movedAfter > capacity) recent.pop_front();
            if (path.cachedReads && step.read == target::ReadKind::Other && t->value.valid() &&
                t->source.memory == target.mainMemory) {
                const std::int64_t wanted = tiling::regionElements(t->region);
                std::int64_t found = 0;
                for (const Stored& s : recent)
                    if (s.value == t->value.index) found += overlap(*s.region, t->region);
                if (wanted > 0 && 10 * found >= kCachedTenths * wanted) {
                    step.read = target::ReadKind::Cached;
                    step.amount += path.latencyCyclesFor(target::ReadKind::Cached) - path.latencyCycles;
                }
            }
            moved += t->bytes;
            if (t->destination.memory == target.mainMemory && t->value.valid())
                recent.push_back({t->value.index, &t->region, moved});
        }
    }
}

} // namespace strata::emulator
