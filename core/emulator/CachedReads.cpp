#include "emulator/CachedReads.h"

#include "emulator/TransferRows.h"

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

// Main-memory bytes a core moved (loaded or stored), by address: a store into lines the core
// holds writes them in its cache, whatever tensor they held before (main memory is reused). A
// strided box's bytes are spread over its span: `density` of each span byte is the box's.
struct Touched {
    ByteSpan span;
    double density;
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

// Whether at least kCachedTenths of the contiguous `span` lies in the touched spans (their
// overlaps times their density, summed).
bool mostlyTouched(const ByteSpan& span, const std::deque<Touched>& touched) {
    if (span.end <= span.begin) return false;
    double found = 0;
    for (const Touched& t : touched) {
        const std::uint64_t lo = std::max(span.begin, t.span.begin), hi = std::min(span.end, t.span.end);
        if (hi > lo) found += double(hi - lo) * t.density;
    }
    return 10 * found >= double(kCachedTenths) * double(span.end - span.begin);
}

double densityOf(const ByteSpan& span, std::uint64_t bytes) {
    return span.end > span.begin ? std::min(1.0, double(bytes) / double(span.end - span.begin)) : 0;
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
        std::deque<Touched> touched;
        for (const compiler::InstrId id : stream) {
            const auto* t = std::get_if<compiler::Transfer>(&program.instructions[id].body);
            if (!t) continue;
            Step& step = steps[id];
            const target::TransferPath& path = target.paths[step.path];
            while (!recent.empty() && moved - recent.front().movedAfter > capacity) recent.pop_front();
            while (!touched.empty() && moved - touched.front().movedAfter > capacity) touched.pop_front();
            const bool load = t->source.memory == target.mainMemory, store = t->destination.memory == target.mainMemory;
            if (path.cachedReads && step.read == target::ReadKind::Other && t->value.valid() && load) {
                const std::int64_t wanted = tiling::regionElements(t->region);
                std::int64_t found = 0;
                for (const Stored& s : recent)
                    if (s.value == t->value.index) found += overlap(*s.region, t->region);
                if (wanted > 0 && 10 * found >= kCachedTenths * wanted) {
                    step.read = target::ReadKind::Cached;
                    step.amount += path.latencyCyclesFor(target::ReadKind::Cached) - path.latencyCycles;
                }
            }
            const ByteSpan span = load || store ? transferSpan(*t, load) : ByteSpan{};
            // A store into main-memory lines the core itself moved recently: they are in its cache.
            // Contiguous stores only: a column tile's rows share their span with its neighbours'.
            if (path.cachedReads && step.read == target::ReadKind::Other && store && transferRows(*t) == 1 &&
                mostlyTouched(span, touched)) {
                step.read = target::ReadKind::Cached;
                step.amount += path.latencyCyclesFor(target::ReadKind::Cached) - path.latencyCycles;
            }
            moved += t->bytes;
            if (store && t->value.valid()) recent.push_back({t->value.index, &t->region, moved});
            if (load || store) touched.push_back({span, densityOf(span, t->bytes), moved});
        }
    }
}

} // namespace strata::emulator
