#include "compiler/passes/VerifyChunks.h"

#include "compiler/BlockChunk.h"
#include "compiler/CompileCache.h"
#include "compiler/passes/Verify.h"
#include "compiler/passes/VerifyChecks.h"

#include <atomic>
#include <limits>
#include <map>
#include <optional>
#include <thread>

namespace strata::compiler {
namespace {

using namespace checks;

constexpr std::uint64_t kNoHome = std::numeric_limits<std::uint64_t>::max();
constexpr std::size_t kParallelFrom = 20'000; // instructions to judge; below, threads cost more than they save

// Where a chunk lies in the program.
struct Span {
    InstrId first = 0;
    std::vector<std::size_t> streamFirst; // per core: its share's start in the core's stream
    int epochBase = 0;                    // barriers before it
};

// The chunks' places, worked out as insert-transfers lays them out (a barrier before a block
// when it needs one), checked against the program at each chunk's ends; none when the program
// is not laid out so.
std::optional<std::vector<Span>> spansOf(const Program& p, const std::vector<std::shared_ptr<const BlockChunk>>& chunks) {
    const std::size_t cores = p.streams.size();
    std::vector<Span> spans(chunks.size());
    std::size_t cursor = 0;
    std::vector<std::size_t> at(cores, 0);
    int epoch = 0;
    auto inChunk = [&](std::size_t core, std::size_t index, std::size_t end) {
        return index < p.streams[core].size() && p.streams[core][index] >= cursor && p.streams[core][index] < end;
    };
    for (std::size_t b = 0; b < chunks.size(); ++b) {
        const BlockChunk& chunk = *chunks[b];
        if (chunk.instructions.empty() || chunk.instructionsOf.size() != cores ||
            chunk.instructions.front().kind() == InstrKind::Barrier || cursor >= p.instructions.size())
            return std::nullopt;
        if (p.instructions[cursor].kind() == InstrKind::Barrier) { // the splice's barrier before the block
            for (std::size_t c = 0; c < cores; ++c) {
                const std::size_t id = cursor + c;
                if (id >= p.instructions.size() || p.instructions[id].kind() != InstrKind::Barrier ||
                    at[c] >= p.streams[c].size() || p.streams[c][at[c]] != id)
                    return std::nullopt;
                ++at[c];
            }
            cursor += cores;
            ++epoch;
        }
        const Instruction& first = chunk.instructions.front();
        if (cursor >= p.instructions.size() || p.instructions[cursor].core != first.core ||
            p.instructions[cursor].from.block != first.from.block || p.instructions[cursor].kind() != first.kind())
            return std::nullopt;
        const std::size_t end = cursor + chunk.instructions.size();
        for (std::size_t c = 0; c < cores; ++c)
            if (chunk.instructionsOf[c] > 0 &&
                (!inChunk(c, at[c], end) || !inChunk(c, at[c] + chunk.instructionsOf[c] - 1, end)))
                return std::nullopt;
        spans[b] = Span{static_cast<InstrId>(cursor), at, epoch};
        cursor = end;
        for (std::size_t c = 0; c < cores; ++c) at[c] += chunk.instructionsOf[c];
        epoch += chunk.barriers;
    }
    if (cursor != p.instructions.size()) return std::nullopt;
    for (std::size_t c = 0; c < cores; ++c)
        if (at[c] != p.streams[c].size()) return std::nullopt;
    return spans;
}

struct Context {
    const Program& program;
    const ir::Graph& graph;
    const target::Target& target;
    std::vector<std::uint32_t> elementBytes;
    std::vector<std::uint64_t> homeOf; // by value index: its DRAM offset, or kNoHome
};

// The chunk's main-memory accesses of one local epoch, at their present DRAM offsets.
void accessesOf(const Context& x, const ChunkVerdict& v, const Span& s, std::size_t epoch, std::vector<MainAccess>& out) {
    for (std::uint32_t local : v.mainSides[epoch]) mainAccessOf(x.program, x.target, x.elementBytes, s.first + local, out);
}

// Races within each of the chunk's epochs alone, for its tensors where they are now.
void judgeRaces(const Context& x, ChunkVerdict& v, const Span& s) {
    std::map<std::uint32_t, std::uint64_t> homes;
    std::vector<MainAccess> accesses;
    std::vector<const MainAccess*> pointers;
    RaceScratch scratch;
    v.raceFree.assign(v.mainSides.size(), 1);
    for (std::size_t e = 0; e < v.mainSides.size(); ++e) {
        accesses.clear();
        accessesOf(x, v, s, e, accesses);
        pointers.clear();
        for (const MainAccess& a : accesses) {
            pointers.push_back(&a);
            homes.emplace(a.value, x.homeOf[a.value]);
        }
        v.raceFree[e] = findRace(pointers, scratch).first == nullptr;
    }
    v.homes.assign(homes.begin(), homes.end());
}

bool homesMoved(const Context& x, const ChunkVerdict& v) {
    return std::any_of(v.homes.begin(), v.homes.end(), [&](const auto& h) { return x.homeOf[h.first] != h.second; });
}

// Everything local to the chunk at `s` (VerifyChunks.h), checked once.
std::shared_ptr<ChunkVerdict> judge(const Context& x, const BlockChunk& chunk, const Span& s) {
    auto v = std::make_shared<ChunkVerdict>();
    v->barriers = chunk.barriers;
    const std::size_t cores = x.program.streams.size();
    const std::size_t epochs = static_cast<std::size_t>(chunk.barriers) + 1;
    v->clean = true;
    v->mainSides.resize(epochs);
    Deliveries deliveries;
    std::map<std::uint32_t, int> firstLoads, lastStores;
    for (std::size_t c = 0; c < cores; ++c) {
        const StreamFacts f = streamFacts(x.program, x.graph, x.target, x.elementBytes, c, s.streamFirst[c],
                                          s.streamFirst[c] + chunk.instructionsOf[c], true);
        if (f.mainAccesses.size() != epochs) v->clean = false; // a core that misses one of its barriers
        for (std::size_t e = 0; e < f.deliveries.size(); ++e) {
            if (deliveries.size() <= e) deliveries.resize(e + 1);
            deliveries[e].insert(deliveries[e].end(), f.deliveries[e].begin(), f.deliveries[e].end());
        }
        for (std::size_t value = 0; value < f.storeEpoch.size(); ++value) {
            if (f.storeEpoch[value] >= 0) {
                int& last = lastStores.try_emplace(static_cast<std::uint32_t>(value), f.storeEpoch[value]).first->second;
                last = std::max(last, f.storeEpoch[value]);
            }
            if (f.firstLoadEpoch[value] >= 0) {
                int& first = firstLoads.try_emplace(static_cast<std::uint32_t>(value), f.firstLoadEpoch[value]).first->second;
                first = std::min(first, f.firstLoadEpoch[value]);
            }
        }
        for (std::size_t e = 0; e < f.mainAccesses.size() && e < epochs; ++e)
            for (const MainAccess& a : f.mainAccesses[e]) v->mainSides[e].push_back(a.id - s.first);
    }
    // A broadcast after the chunk's last barrier would land at a barrier of another block.
    for (std::size_t e = static_cast<std::size_t>(chunk.barriers); e < deliveries.size(); ++e)
        if (!deliveries[e].empty()) v->clean = false;
    const std::vector<int> noStoreEpochs; // the DRAM order is checked across chunks
    for (std::size_t c = 0; c < cores && v->clean; ++c) {
        std::vector<Diagnostic> found;
        CoreChecker(x.program, x.graph, x.target, static_cast<int>(c), x.elementBytes, noStoreEpochs, deliveries, found)
            .run(s.streamFirst[c], s.streamFirst[c] + chunk.instructionsOf[c]);
        v->clean = found.empty();
    }
    v->firstLoads.assign(firstLoads.begin(), firstLoads.end());
    v->lastStores.assign(lastStores.begin(), lastStores.end());
    judgeRaces(x, *v, s);
    return v;
}

template <class Work>
void forEachIndex(std::size_t count, bool parallel, const Work& work) {
    const unsigned threads = parallel ? std::clamp(std::thread::hardware_concurrency(), 1u, 4u) : 1u;
    std::atomic<std::size_t> next{0};
    auto run = [&] {
        for (std::size_t i = next++; i < count; i = next++) work(i);
    };
    std::vector<std::thread> helpers;
    for (unsigned i = 1; i < threads && i < count; ++i) helpers.emplace_back(run);
    run();
    for (std::thread& t : helpers) t.join();
}

// True when no race spans chunks: the epochs several chunks share are checked whole.
bool sharedEpochsRaceFree(const Context& x, const std::vector<Span>& spans,
                          const std::vector<std::shared_ptr<ChunkVerdict>>& verdicts) {
    std::map<int, std::vector<std::pair<std::size_t, std::size_t>>> parts; // global epoch -> (chunk, local epoch)
    for (std::size_t b = 0; b < spans.size(); ++b)
        for (std::size_t e = 0; e < verdicts[b]->mainSides.size(); ++e)
            if (!verdicts[b]->mainSides[e].empty()) parts[spans[b].epochBase + static_cast<int>(e)].emplace_back(b, e);
    std::vector<MainAccess> accesses;
    std::vector<const MainAccess*> pointers;
    RaceScratch scratch;
    for (const auto& [epoch, shared] : parts) {
        if (shared.size() < 2) continue;
        accesses.clear();
        for (const auto& [b, e] : shared) accessesOf(x, *verdicts[b], spans[b], e, accesses);
        pointers.clear();
        for (const MainAccess& a : accesses) pointers.push_back(&a);
        if (findRace(pointers, scratch).first) return false;
    }
    return true;
}

// True when every load of a tensor comes after the barrier that follows its last store.
bool dramOrdered(const Context& x, const std::vector<Span>& spans, const std::vector<std::shared_ptr<ChunkVerdict>>& verdicts) {
    std::vector<int> storeEpoch(x.graph.values.size(), -1);
    for (std::size_t b = 0; b < spans.size(); ++b)
        for (const auto& [value, epoch] : verdicts[b]->lastStores)
            storeEpoch[value] = std::max(storeEpoch[value], spans[b].epochBase + epoch);
    for (std::size_t b = 0; b < spans.size(); ++b)
        for (const auto& [value, epoch] : verdicts[b]->firstLoads)
            if (storeEpoch[value] >= spans[b].epochBase + epoch) return false;
    return true;
}

} // namespace

std::vector<Diagnostic> verifySpliced(const Program& program, const ir::Graph& graph, const target::Target& target,
                                      const std::vector<std::shared_ptr<const BlockChunk>>& chunks, CompileCache& cache) {
    auto whole = [&] {
        cache.countWholeVerify();
        return verifyProgram(program, graph, target);
    };
    const auto spans = spansOf(program, chunks);
    if (!spans) return whole();
    Context x{program, graph, target, elementBytesOf(graph), std::vector<std::uint64_t>(graph.values.size(), kNoHome)};
    for (const DramBuffer& b : program.dram)
        if (b.value.index < x.homeOf.size()) x.homeOf[b.value.index] = b.offset;

    std::vector<std::shared_ptr<ChunkVerdict>> verdicts(chunks.size());
    std::vector<std::size_t> unjudged, moved;
    std::size_t work = 0;
    for (std::size_t b = 0; b < chunks.size(); ++b) {
        verdicts[b] = cache.verdict(chunks[b].get());
        if (!verdicts[b]) {
            unjudged.push_back(b);
            work += chunks[b]->instructions.size();
        } else if (homesMoved(x, *verdicts[b])) {
            moved.push_back(b);
        }
    }
    forEachIndex(unjudged.size(), work >= kParallelFrom,
                 [&](std::size_t i) { verdicts[unjudged[i]] = judge(x, *chunks[unjudged[i]], (*spans)[unjudged[i]]); });
    for (std::size_t b : unjudged) cache.keepVerdict(chunks[b], verdicts[b]);
    forEachIndex(moved.size(), moved.size() > 4, [&](std::size_t i) { judgeRaces(x, *verdicts[moved[i]], (*spans)[moved[i]]); });
    cache.countRaceRechecks(moved.size());

    for (const auto& v : verdicts)
        if (!v->clean || std::find(v->raceFree.begin(), v->raceFree.end(), 0) != v->raceFree.end()) return whole();
    if (!dramOrdered(x, *spans, verdicts) || !sharedEpochsRaceFree(x, *spans, verdicts)) return whole();
    return {};
}

std::vector<Diagnostic> verifyWithCache(const CompileState& state) {
    std::vector<std::shared_ptr<const BlockChunk>> chunks;
    chunks.reserve(state.blocks.size());
    for (const TiledBlock& block : state.blocks) {
        chunks.push_back(state.cache->keptChunk(chunkKey(block)));
        if (!chunks.back()) return verifyProgram(state.program, state.graph, state.target);
    }
    return verifySpliced(state.program, state.graph, state.target, chunks, *state.cache);
}

} // namespace strata::compiler
