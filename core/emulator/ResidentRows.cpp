#include "emulator/ResidentRows.h"

#include "emulator/TransferRows.h"

#include <algorithm>
#include <deque>

namespace strata::emulator {
namespace {

// A main-memory span a core moved, and the core's count of moved bytes just after.
struct Touched {
    std::uint64_t begin, end, movedAfter;
};

// The share of [begin, end) the recent spans cover, overlaps summed (as the accuracy report's
// resident_own column counts it), at most 1.
double coveredShare(std::uint64_t begin, std::uint64_t end, const std::deque<Touched>& recent) {
    if (end <= begin)
        return 0;
    double covered = 0;
    for (const Touched& t : recent) {
        const std::uint64_t lo = std::max(begin, t.begin), hi = std::min(end, t.end);
        if (hi > lo)
            covered += double(hi - lo);
    }
    return std::min(1.0, covered / double(end - begin));
}

} // namespace

void chargeResidentRows(const compiler::Program& program, const target::Target& target,
                        std::vector<Step>& steps) {
    const bool any = std::any_of(target.paths.begin(), target.paths.end(), [](const auto& p) {
        return p.residentRowOverheadCycles.has_value();
    });
    const target::MemorySpace* working = target.findMemory(target.workingMemory);
    if (!any || !working)
        return;
    const std::uint64_t capacity = working->capacityBytes;
    for (const std::vector<compiler::InstrId>& stream : program.streams) {
        std::uint64_t moved = 0;
        std::deque<Touched> recent; // oldest first
        for (const compiler::InstrId id : stream) {
            const auto* t = std::get_if<compiler::Transfer>(&program.instructions[id].body);
            if (!t)
                continue;
            const bool load = t->source.memory == target.mainMemory;
            if (!load && t->destination.memory != target.mainMemory)
                continue;
            while (!recent.empty() && moved - recent.front().movedAfter > capacity)
                recent.pop_front();
            const ByteSpan span = transferSpan(*t, load);
            const target::TransferPath& path = target.paths[steps[id].path];
            if (load && path.residentRowOverheadCycles &&
                path.rowOverheadCycles > *path.residentRowOverheadCycles) {
                const double share = coveredShare(span.begin, span.end, recent);
                if (share > 0)
                    steps[id].amount -= share * double(transferRows(*t)) *
                                        (path.rowOverheadCycles - *path.residentRowOverheadCycles);
            }
            moved += t->bytes;
            recent.push_back({span.begin, span.end, moved});
        }
    }
}

} // namespace strata::emulator
