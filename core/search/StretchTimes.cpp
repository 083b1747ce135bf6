#include "search/StretchTimes.h"

#include "emulator/Emulator.h"

#include <algorithm>
#include <variant>

namespace strata::search {
namespace {

constexpr int kTagSpace = 1024;           // as insert-transfers numbers tags
constexpr std::uint64_t kPurgeEvery = 64; // calls between sweeps of entries whose chunks expired

} // namespace

bool StretchTimes::Entry::live() const {
    return !chunks.empty() &&
           std::none_of(chunks.begin(), chunks.end(), [](const auto& c) { return c.expired(); });
}

StretchTimes::StretchTimes(const ir::Graph& graph, const target::Target& target)
    : m_graph(graph), m_target(target) {
    const bool cached = std::any_of(target.paths.begin(), target.paths.end(), [](const auto& p) {
        return p.cachedReads.has_value() || p.cachedWrites.has_value();
    });
    const target::MemorySpace* working = target.findMemory(target.workingMemory);
    if (cached && working)
        m_cacheWindow = working->capacityBytes; // emulator/CachedReads.h's window
    m_byAddress = std::any_of(target.paths.begin(), target.paths.end(),
                              [](const auto& p) { return p.cachedWrites.has_value(); });
}

const std::vector<std::uint64_t>&
StretchTimes::movedPerCore(const std::shared_ptr<const compiler::BlockChunk>& chunk) {
    Moved& m = m_moved[chunk.get()];
    if (m.chunk.expired() || m.chunk.lock() != chunk) {
        m.chunk = chunk;
        m.bytes.assign(static_cast<std::size_t>(m_target.cores()), 0);
        for (const compiler::Instruction& in : chunk->instructions)
            if (const auto* t = std::get_if<compiler::Transfer>(&in.body))
                if (in.core >= 0 && in.core < m_target.cores())
                    m.bytes[static_cast<std::size_t>(in.core)] += t->bytes;
    }
    return m.bytes;
}

std::optional<StretchTimes::Totals>
StretchTimes::totals(const std::vector<std::shared_ptr<const compiler::BlockChunk>>& chunks,
                     const std::vector<std::uint8_t>& barrierBefore,
                     const std::vector<std::uint64_t>& dramOffsets) {
    ++m_calls;
    // The stretches: [starts[i], starts[i + 1]).
    std::vector<std::size_t> starts;
    for (std::size_t p = 0; p < chunks.size(); ++p)
        if (p == 0 || barrierBefore[p])
            starts.push_back(p);
    starts.push_back(chunks.size());
    Totals sum;
    std::string key;
    for (std::size_t i = 0; i + 1 < starts.size(); ++i) {
        const std::size_t first = starts[i], end = starts[i + 1];
        // With cached reads, the stretches before it whose stores a core's cache may still hold
        // when it loads: back until every core has moved more than the window since.
        std::size_t from = first;
        if (m_cacheWindow > 0) {
            std::vector<std::uint64_t> moved(static_cast<std::size_t>(m_target.cores()), 0);
            for (std::size_t j = i;
                 j > 0 && std::any_of(moved.begin(), moved.end(),
                                      [&](std::uint64_t b) { return b <= m_cacheWindow; });) {
                --j;
                for (std::size_t p = starts[j]; p < starts[j + 1]; ++p) {
                    const auto& bytes = movedPerCore(chunks[p]);
                    for (std::size_t c = 0; c < moved.size(); ++c)
                        moved[c] += bytes[c];
                }
                from = starts[j];
            }
        }
        key.clear();
        for (std::size_t p = from; p < end; ++p) {
            const auto address = reinterpret_cast<std::uintptr_t>(chunks[p].get());
            key.append(reinterpret_cast<const char*>(&address), sizeof address);
            key += p + 1 == first                                     ? '/'
                   : barrierBefore[p + 1 < chunks.size() ? p + 1 : p] ? ';'
                                                                      : ',';
            if (m_byAddress)
                for (const auto* values : {&chunks[p]->loaded, &chunks[p]->stored})
                    for (const std::uint32_t v : *values) {
                        const std::uint64_t offset = v < dramOffsets.size() ? dramOffsets[v] : 0;
                        key.append(reinterpret_cast<const char*>(&offset), sizeof offset);
                    }
        }
        key += end < chunks.size() ? '|' : '.'; // the last stretch has no closing barrier
        Entry& entry = m_stretches[key];
        if (entry.live()) {
            ++m_hits;
        } else {
            ++m_misses;
            const auto stretch =
                emulateStretch(chunks, barrierBefore, dramOffsets, from, first, end);
            if (!stretch) {
                m_stretches.erase(key);
                return std::nullopt;
            }
            entry.totals = *stretch;
            entry.chunks.assign(chunks.begin() + static_cast<std::ptrdiff_t>(from),
                                chunks.begin() + static_cast<std::ptrdiff_t>(end));
        }
        sum.ps += entry.totals.ps;
        sum.dramBytes += entry.totals.dramBytes;
    }
    if (m_calls % kPurgeEvery == 0) {
        std::erase_if(m_stretches, [](const auto& item) { return !item.second.live(); });
        std::erase_if(m_moved, [](const auto& item) { return item.second.chunk.expired(); });
    }
    return sum;
}

// Splices chunks [from, end) as insert-transfers does (ids, per-core tags and barrier ids after
// the ones before, a barrier before each block flagged, each main-memory side moved to its
// tensor's DRAM offset), closes the stretch with a barrier when the program has one there,
// emulates it from time 0, and times the stretch [first, end): from the release of the barrier
// before it (the chunks before `first` only fill the cores' caches as they would).
std::optional<StretchTimes::Totals>
StretchTimes::emulateStretch(const std::vector<std::shared_ptr<const compiler::BlockChunk>>& chunks,
                             const std::vector<std::uint8_t>& barrierBefore,
                             const std::vector<std::uint64_t>& dramOffsets, std::size_t from,
                             std::size_t first, std::size_t end) const {
    compiler::Program program;
    program.modelName = m_graph.name;
    program.modelHash = m_graph.contentHash;
    program.targetName = m_target.name;
    program.mainMemory = m_target.mainMemory;
    program.workingMemory = m_target.workingMemory;
    program.cores = m_target.cores();
    program.streams.assign(static_cast<std::size_t>(program.cores), {});
    const bool closingBarrier = end < chunks.size();
    std::size_t size = static_cast<std::size_t>(program.cores) * (end - from + 1);
    for (std::size_t p = from; p < end; ++p)
        size += chunks[p]->instructions.size();
    program.instructions.reserve(size);
    std::vector<int> tagBase(static_cast<std::size_t>(program.cores), 0);
    int barriers = 0;
    auto barrier = [&] {
        for (int c = 0; c < program.cores; ++c) {
            const auto id = static_cast<compiler::InstrId>(program.instructions.size());
            program.instructions.push_back(
                {id, c, compiler::Provenance{}, compiler::Barrier{barriers}});
            program.streams[static_cast<std::size_t>(c)].push_back(id);
        }
        return barriers++;
    };
    int opening = -1; // the barrier before the stretch timed, when there are chunks before it
    compiler::InstrId openingId = 0;
    std::uint64_t dramBytes = 0;
    for (std::size_t p = from; p < end; ++p) {
        if (p > from && barrierBefore[p]) {
            const auto id = static_cast<compiler::InstrId>(program.instructions.size());
            const int b = barrier();
            if (p == first) {
                opening = b;
                openingId = id;
            }
        }
        const compiler::BlockChunk& chunk = *chunks[p];
        const auto base = static_cast<compiler::InstrId>(program.instructions.size());
        for (const compiler::Instruction& source : chunk.instructions) {
            compiler::Instruction& in = program.instructions.emplace_back(source);
            const auto core = static_cast<std::size_t>(in.core);
            in.id += base;
            program.streams[core].push_back(in.id);
            if (auto* t = std::get_if<compiler::Transfer>(&in.body)) {
                t->tag = (t->tag + tagBase[core]) % kTagSpace;
                if (p >= first && (t->source.memory == program.mainMemory ||
                                   t->destination.memory == program.mainMemory))
                    dramBytes += t->bytes;
            } else if (auto* w = std::get_if<compiler::Wait>(&in.body))
                w->tag = (w->tag + tagBase[core]) % kTagSpace;
            else if (auto* b = std::get_if<compiler::Barrier>(&in.body))
                b->id += barriers;
        }
        for (const compiler::BlockChunk::DramSide& side : chunk.dramSides) {
            auto& t =
                std::get<compiler::Transfer>(program.instructions[base + side.instruction].body);
            if (t.value.index < dramOffsets.size())
                (side.source ? t.source : t.destination).offset += dramOffsets[t.value.index];
        }
        for (std::size_t c = 0; c < tagBase.size() && c < chunk.transfersOf.size(); ++c)
            tagBase[c] = (tagBase[c] + chunk.transfersOf[c]) % kTagSpace;
        barriers += chunk.barriers;
        program.blocks.push_back(chunk.code);
    }
    const int closing = closingBarrier ? barrier() : -1;
    std::vector<std::uint32_t> restarts;
    emulator::EmulateOptions options;
    options.counters = false;
    options.restarts = &restarts;
    auto trace = emulator::emulate(program, m_target, m_graph, options);
    if (!trace)
        return std::nullopt;
    // The whole program's clock restarts at these barriers only if nothing is in flight there.
    const auto restarted = [&](int b) {
        return std::binary_search(restarts.begin(), restarts.end(), static_cast<std::uint32_t>(b));
    };
    if ((opening >= 0 && !restarted(opening)) || (closing >= 0 && !restarted(closing)))
        return std::nullopt;
    const std::int64_t start = opening >= 0 ? trace->events[openingId].endPs : 0;
    return Totals{trace->endPs() - start, dramBytes};
}

} // namespace strata::search
