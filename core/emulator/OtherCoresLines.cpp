#include "emulator/OtherCoresLines.h"

#include "emulator/BarrierSegments.h"
#include "emulator/TransferRows.h"

#include <algorithm>
#include <deque>

namespace strata::emulator {
namespace {

// A store is into another core's lines when this share of its span is (in tenths), as the
// cached reads and stores are counted (CachedReads.h).
constexpr std::uint64_t kHeldTenths = 9;

struct Touched {
    std::uint64_t begin;
    std::uint64_t end;
    std::size_t order; // its place in the walk: a later one moved its bytes later
    std::size_t segment;
    std::uint64_t movedAfter; // its core's bytes moved just after
    bool store;
};

std::uint64_t overlap(const Touched& t, const ByteSpan& span) {
    const std::uint64_t lo = std::max(t.begin, span.begin), hi = std::min(t.end, span.end);
    return hi > lo ? hi - lo : 0;
}

// The bytes of the union of `pieces` ([begin, end) each).
std::uint64_t unionBytes(std::vector<ByteSpan>& pieces) {
    std::sort(pieces.begin(), pieces.end(),
              [](const ByteSpan& a, const ByteSpan& b) { return a.begin < b.begin; });
    std::uint64_t total = 0, reached = 0;
    for (const ByteSpan& p : pieces) {
        const std::uint64_t from = std::max(p.begin, reached);
        if (p.end > from)
            total += p.end - from;
        reached = std::max(reached, p.end);
    }
    return total;
}

} // namespace

void chargeStoresIntoOtherCoresLines(const compiler::Program& program, const target::Target& target,
                                     std::vector<Step>& steps) {
    const std::uint64_t privateBytes = target.privateCacheBytes;
    if (program.streams.size() < 2 || privateBytes == 0 ||
        std::none_of(target.paths.begin(), target.paths.end(), [](const auto& p) {
            return p.cachedWrites && !p.cachedWrites->byReuseDistance.empty();
        }))
        return;
    std::vector<std::uint64_t> moved(program.streams.size(), 0);
    // Per core, what it moved within its private cache's worth of traffic, oldest first.
    std::vector<std::deque<Touched>> recent(program.streams.size());
    std::size_t order = 0;
    forEachTransferInBarrierOrder(program, [&](compiler::InstrId id, const compiler::Transfer& t,
                                               std::uint32_t c, std::size_t s) {
        const bool load = t.source.memory == target.mainMemory;
        const bool store = t.destination.memory == target.mainMemory;
        if (!load && !store) {
            moved[c] += t.bytes;
            return;
        }
        const ByteSpan span = transferSpan(t, load);
        Step& step = steps[id];
        const target::TransferPath& path = target.paths[step.path];
        if (store && !load && step.read == target::ReadKind::CachedWrite &&
            step.reuseBytes <= double(privateBytes) && path.cachedWrites &&
            !path.cachedWrites->byReuseDistance.empty() && span.end > span.begin) {
            // The other cores' bytes since this core last stored into the span.
            std::size_t since = 0;
            for (const Touched& r : recent[c])
                if (r.store && overlap(r, span))
                    since = r.order + 1;
            std::vector<ByteSpan> held;
            for (std::uint32_t other = 0; other < recent.size(); ++other)
                if (other != c)
                    for (const Touched& r : recent[other])
                        if (r.order >= since && r.segment < s && overlap(r, span))
                            held.push_back(
                                {std::max(r.begin, span.begin), std::min(r.end, span.end)});
            const std::uint64_t bytes = span.end - span.begin;
            if (10 * unionBytes(held) >= kHeldTenths * bytes)
                step.amount += target::reuseDistanceExtraCycles(*path.cachedWrites, double(t.bytes),
                                                                double(privateBytes));
        }
        moved[c] += t.bytes;
        recent[c].push_back({span.begin, span.end, order++, s, moved[c], store && !load});
        while (moved[c] - recent[c].front().movedAfter > privateBytes)
            recent[c].pop_front();
    });
}

} // namespace strata::emulator
