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

bool stretchesIndependent(const target::Target& target) {
    return std::none_of(target.paths.begin(), target.paths.end(),
                        [](const auto& p) { return p.cachedReads.has_value(); });
}

std::optional<StretchTimes::Totals>
StretchTimes::totals(const std::vector<std::shared_ptr<const compiler::BlockChunk>>& chunks,
                     const std::vector<std::uint8_t>& barrierBefore) {
    ++m_calls;
    Totals sum;
    std::string key;
    for (std::size_t first = 0; first < chunks.size();) {
        std::size_t end = first + 1;
        while (end < chunks.size() && !barrierBefore[end])
            ++end;
        key.clear();
        for (std::size_t p = first; p < end; ++p) {
            const auto address = reinterpret_cast<std::uintptr_t>(chunks[p].get());
            key.append(reinterpret_cast<const char*>(&address), sizeof address);
        }
        key += end < chunks.size() ? '|' : '.'; // the last stretch has no closing barrier
        Entry& entry = m_stretches[key];
        if (entry.live()) {
            ++m_hits;
        } else {
            ++m_misses;
            const auto stretch = emulateStretch(&chunks[first], end - first, end < chunks.size());
            if (!stretch) {
                m_stretches.erase(key);
                return std::nullopt;
            }
            entry.totals = *stretch;
            entry.chunks.assign(chunks.begin() + static_cast<std::ptrdiff_t>(first),
                                chunks.begin() + static_cast<std::ptrdiff_t>(end));
        }
        sum.ps += entry.totals.ps;
        sum.dramBytes += entry.totals.dramBytes;
        first = end;
    }
    if (m_calls % kPurgeEvery == 0)
        std::erase_if(m_stretches, [](const auto& item) { return !item.second.live(); });
    return sum;
}

// Splices the chunks as insert-transfers does (ids, per-core tags and barrier ids after the
// ones before; main-memory offsets left relative, the emulator does not read them), closes the
// stretch with a barrier when the program has one there, and emulates it from time 0.
std::optional<StretchTimes::Totals>
StretchTimes::emulateStretch(const std::shared_ptr<const compiler::BlockChunk>* first,
                             std::size_t count, bool closingBarrier) const {
    compiler::Program program;
    program.modelName = m_graph.name;
    program.modelHash = m_graph.contentHash;
    program.targetName = m_target.name;
    program.mainMemory = m_target.mainMemory;
    program.workingMemory = m_target.workingMemory;
    program.cores = m_target.cores();
    program.streams.assign(static_cast<std::size_t>(program.cores), {});
    std::size_t size = closingBarrier ? static_cast<std::size_t>(program.cores) : 0;
    for (std::size_t i = 0; i < count; ++i)
        size += first[i]->instructions.size();
    program.instructions.reserve(size);
    std::vector<int> tagBase(static_cast<std::size_t>(program.cores), 0);
    int barriers = 0;
    std::uint64_t dramBytes = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const compiler::BlockChunk& chunk = *first[i];
        const auto base = static_cast<compiler::InstrId>(program.instructions.size());
        for (const compiler::Instruction& from : chunk.instructions) {
            compiler::Instruction& in = program.instructions.emplace_back(from);
            const auto core = static_cast<std::size_t>(in.core);
            in.id += base;
            program.streams[core].push_back(in.id);
            if (auto* t = std::get_if<compiler::Transfer>(&in.body)) {
                t->tag = (t->tag + tagBase[core]) % kTagSpace;
                if (t->source.memory == program.mainMemory ||
                    t->destination.memory == program.mainMemory)
                    dramBytes += t->bytes;
            } else if (auto* w = std::get_if<compiler::Wait>(&in.body))
                w->tag = (w->tag + tagBase[core]) % kTagSpace;
            else if (auto* b = std::get_if<compiler::Barrier>(&in.body))
                b->id += barriers;
        }
        for (std::size_t c = 0; c < tagBase.size() && c < chunk.transfersOf.size(); ++c)
            tagBase[c] = (tagBase[c] + chunk.transfersOf[c]) % kTagSpace;
        barriers += chunk.barriers;
        program.blocks.push_back(chunk.code);
    }
    if (closingBarrier)
        for (int c = 0; c < program.cores; ++c) {
            const auto id = static_cast<compiler::InstrId>(program.instructions.size());
            program.instructions.push_back(
                {id, c, compiler::Provenance{}, compiler::Barrier{barriers}});
            program.streams[static_cast<std::size_t>(c)].push_back(id);
        }
    std::vector<std::uint32_t> restarts;
    emulator::EmulateOptions options;
    options.counters = false;
    options.restarts = &restarts;
    auto trace = emulator::emulate(program, m_target, m_graph, options);
    if (!trace)
        return std::nullopt;
    // The whole program's clock restarts at the closing barrier only if nothing is in flight.
    if (closingBarrier &&
        (restarts.empty() || restarts.back() != static_cast<std::uint32_t>(barriers)))
        return std::nullopt;
    return Totals{trace->endPs(), dramBytes};
}

} // namespace strata::search
