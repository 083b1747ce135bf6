#include "compiler/passes/InsertTransfers.h"

#include "base/Units.h"
#include "compiler/BlockChunk.h"
#include "compiler/passes/ChooseLayouts.h"
#include "compiler/passes/FuseEpilogues.h"
#include "compiler/CompileCache.h"
#include "tiling/SlotPacking.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>

namespace strata::compiler {
namespace {

constexpr int kTagSpace = 1024; // tags cycle; the verifier checks none is reused in flight
constexpr std::size_t kParallelFromTiles = 2000; // below, threads cost more than they save

std::vector<std::int64_t> rowMajorStrides(const ir::Shape& shape) {
    std::vector<std::int64_t> strides(shape.size(), 1);
    for (std::size_t d = shape.size(); d-- > 1;) strides[d - 1] = strides[d] * shape[d];
    return strides;
}

ir::Shape sizes(const tiling::Region& r) {
    ir::Shape s(r.size());
    for (std::size_t d = 0; d < r.size(); ++d) s[d] = r[d].size();
    return s;
}

// The strides of `shape` laid out in `layout` (row-major, or channels-last for rank 4), each in
// its dim's own place.
std::vector<std::int64_t> stridesIn(const ir::Shape& shape, int layout) {
    if (layout != kChannelsLast || shape.size() != 4)
        return rowMajorStrides(shape);
    const std::int64_t c = shape[1], h = shape[2], w = shape[3];
    return {h * w * c, 1, w * c, c};
}

// An access whose dims run in the order of `layout`: channels-last puts channels last, so that
// each row a transfer copies is one position's channels (a run of whole positions where the box
// holds all channels).
void orderDims(Access& a, int layout) {
    if (layout != kChannelsLast || a.shape.size() != 4 || a.strides.size() != 4)
        return;
    a.shape = {a.shape[0], a.shape[2], a.shape[3], a.shape[1]};
    a.strides = {a.strides[0], a.strides[2], a.strides[3], a.strides[1]};
}

using Chunk = BlockChunk;

// The target's paths and the DRAM plan, as every block's writer reads them.
struct Paths {
    const target::TransferPath* load = nullptr;
    const target::TransferPath* store = nullptr;
    const target::TransferPath* broadcast = nullptr; // main -> working memory, to every core
    bool mainPerGroup = false;
    std::vector<const DramBuffer*> dramOf;           // by value index
};

const DramBuffer* dramOf(const Paths& paths, std::uint32_t value) {
    return value < paths.dramOf.size() ? paths.dramOf[value] : nullptr;
}

// The weights of a block that runs on every core, when the target can broadcast from main
// to working memory: one transfer delivers each to all cores instead of one per core.
std::vector<ir::ValueId> broadcastWeights(const ir::Graph& g, const target::Target& t, const Paths& paths,
                                          const TiledBlock& block) {
    std::vector<ir::ValueId> out;
    if (!paths.broadcast || t.cores() < 2) return out;
    std::set<int> cores(block.coreOfTile.begin(), block.coreOfTile.end());
    if (static_cast<int>(cores.size()) != t.cores()) return out;
    for (ir::ValueId v : block.resident())
        if (g.value(v).isConstant) out.push_back(v);
    return out;
}

class BlockWriter {
  public:
    BlockWriter(const CompileState& state, const Paths& paths, Chunk& out)
        : m_g(state.graph), m_t(state.target), m_paths(paths), m_load(paths.load), m_store(paths.store),
          m_broadcast(paths.broadcast), m_mainPerGroup(paths.mainPerGroup), m_out(out) {
        m_out.transfersOf.assign(static_cast<std::size_t>(m_t.cores()), 0);
        m_out.instructionsOf.assign(static_cast<std::size_t>(m_t.cores()), 0);
    }

    struct Slot {
        std::vector<int> storeTags;
    };

    int groupOf(int core) const { return core / std::max(1, m_t.coresPerGroup); }

    InstrId append(int core, Provenance from, decltype(Instruction::body) body) {
        Instruction in;
        in.id = static_cast<InstrId>(m_out.instructions.size()); // local: the splice renumbers
        in.core = core;
        in.from = from;
        in.body = std::move(body);
        m_out.instructions.push_back(std::move(in));
        ++m_out.instructionsOf[static_cast<std::size_t>(core)];
        return m_out.instructions.back().id;
    }

    // Local tags count this block's transfers per core from 0; the splice adds the core's
    // running count, modulo the tag space.
    int nextTag(int core) { return m_out.transfersOf[static_cast<std::size_t>(core)]++; }

    // The layout of `v`'s home in main memory (DramBuffer::layout).
    int dramLayout(ir::ValueId v) const {
        const DramBuffer* home = dramOf(m_paths, v.index);
        return home ? home->layout : 0;
    }

    // The layout of the box a load of `part` fills: its home's, when the load fills the whole box
    // `held` (a box partly loaded stays row-major: its other rows are computed so).
    int loadedLayout(ir::ValueId v, const tiling::Region& part, const tiling::Region& held) const {
        return part == held ? dramLayout(v) : 0;
    }

    // Relative to the tensor's DRAM home: the splice adds its offset (dramSides).
    Access dramAccess(ir::ValueId v, const tiling::Region& r, int core) const {
        Access a;
        a.memory = m_t.mainMemory;
        a.instance = m_mainPerGroup ? groupOf(core) : 0;
        const ir::Shape& shape = m_g.value(v).shape;
        a.strides = stridesIn(shape, dramLayout(v));
        std::int64_t first = 0;
        for (std::size_t d = 0; d < r.size(); ++d) first += r[d].begin * a.strides[d];
        a.offset = static_cast<std::uint64_t>(first) * ir::dtypeSize(m_g.value(v).dtype);
        a.shape = sizes(r);
        return a;
    }

    Access sramAccess(std::uint64_t offset, const tiling::Region& held, const tiling::Region& part,
                      ir::ValueId v, int core, int layout = 0) const {
        Access a;
        a.memory = m_t.workingMemory;
        a.instance = core;
        // `part`'s first element inside the box `held`, laid out in `layout`.
        a.strides = stridesIn(sizes(held), layout);
        std::int64_t elements = 0;
        for (std::size_t d = 0; d < part.size(); ++d) elements += (part[d].begin - held[d].begin) * a.strides[d];
        a.offset = offset + static_cast<std::uint64_t>(elements) * ir::dtypeSize(m_g.value(v).dtype);
        a.shape = sizes(part);
        return a;
    }

    // A load (main memory to working memory) or a store (the other way).
    enum class Way : std::uint8_t { Load, Store };
    // `layout`: the working-memory box's (sramAccess's); both accesses then run in its dims' order.
    int transfer(Way way, int core, Provenance from, const target::TransferPath& path, Access src,
                 Access dst, ir::ValueId v, const tiling::Region& region, int layout = 0) {
        Transfer t;
        t.path = path.name;
        orderDims(src, layout);
        orderDims(dst, layout);
        t.channelBlock = layout;
        t.source = std::move(src);
        t.destination = std::move(dst);
        t.bytes = tiling::regionBytes(region, m_g.value(v).dtype);
        t.tag = nextTag(core);
        t.value = v;
        t.region = region;
        int tag = t.tag;
        const InstrId at = append(core, from, std::move(t));
        m_out.dramSides.push_back({at, way == Way::Load});
        return tag;
    }

    void wait(int core, Provenance from, int tag) { append(core, from, Wait{tag}); }

    void barrier() {
        for (int c = 0; c < m_t.cores(); ++c) append(c, Provenance{}, Barrier{m_out.barriers});
        ++m_out.barriers;
    }


    // Core 0 broadcasts the block's weights and waits; the barrier after makes them every
    // core's to read.
    void emitBroadcasts(const TiledBlock& block, const std::vector<ir::ValueId>& weights,
                        const std::map<std::uint32_t, std::uint64_t>& residentAt) {
        std::vector<int> tags, others;
        for (int c = 1; c < m_t.cores(); ++c) others.push_back(c);
        for (ir::ValueId v : weights) {
            const tiling::Region whole = tiling::fullRegion(m_g.value(v).shape);
            Provenance from{block.block.id, block.tiles().empty() ? ir::OpId{} : firstReader(block.tiles().front(), v), -1};
            tags.push_back(transfer(Way::Load, 0, from, *m_broadcast, dramAccess(v, whole, 0),
                                    sramAccess(residentAt.at(v.index), whole, whole, v, 0), v, whole));
            std::get<Transfer>(m_out.instructions.back().body).alsoTo = others;
        }
        for (int tag : tags) wait(0, Provenance{block.block.id, {}, -1}, tag);
        barrier();
    }

    ir::OpId firstReader(const tiling::TilePlan& tile, ir::ValueId v) const {
        for (ir::OpId op : tile.ops)
            for (ir::ValueId in : m_g.op(op).inputs)
                if (in == v) return op;
        return {};
    }

  public:
    void emitBlock(const TiledBlock& block) {
        const int id = block.block.id;
        m_out.plan = block.plan;
        std::set<std::uint32_t> loaded, stored; // each tensor once, however many tiles touch it
        for (const auto& tile : block.tiles()) {
            for (const auto& [v, r] : tile.loads) loaded.insert(v.index);
            for (const auto& [v, r] : tile.stores) stored.insert(v.index);
        }
        m_out.loaded.assign(loaded.begin(), loaded.end());
        m_out.stored.assign(stored.begin(), stored.end());
        const std::vector<ir::ValueId> broadcast = broadcastWeights(m_g, m_t, m_paths, block);
        m_out.broadcasts = !broadcast.empty();
        // Working memory: resident inputs, then the slots.
        std::map<std::uint32_t, std::uint64_t> residentAt;
        std::uint64_t residentBytes = 0;
        for (ir::ValueId v : block.resident()) {
            residentAt[v.index] = residentBytes;
            residentBytes += tiling::sramAligned(m_g.value(v).bytes());
        }
        const std::vector<TileLayout>& layouts = block.plan->layouts;
        const std::uint64_t slotBytes = block.plan->slotBytes;
        const std::uint64_t total = residentBytes + slotBytes * static_cast<std::uint64_t>(block.buffering);
        BlockCode code{id, block.grid.extents, block.grid.tileCount(), {}, total};
        std::set<int> cores(block.coreOfTile.begin(), block.coreOfTile.end());
        code.cores.assign(cores.begin(), cores.end());
        m_out.code = code;
        // Per tile: a transfer and a wait for each load and store, a compute for each op, two
        // loads, two waits and a compute for each later slice. Reserving spares the regrowth.
        std::size_t expected =
            4 * static_cast<std::size_t>(m_t.cores()) * (block.resident().size() + 2);
        for (const auto& tile : block.tiles())
            expected += 2 * (tile.loads.size() + tile.stores.size()) + tile.ops.size() +
                        5 * static_cast<std::size_t>(tile.slices() - 1);
        m_out.instructions.reserve(expected);
        if (total > m_t.workingMemoryBytes()) {
            m_out.diagnostics.push_back(error("working-memory plan needs " + formatBytes(total) + " (resident " +
                                                    formatBytes(residentBytes) + " + " + std::to_string(block.buffering) +
                                                    " x " + formatBytes(slotBytes) + "), '" + m_t.workingMemory +
                                                    "' holds " + formatBytes(m_t.workingMemoryBytes()),
                                                Location{.block = schedule::blockName(id)}));
            return;
        }

        if (!broadcast.empty()) emitBroadcasts(block, broadcast, residentAt);
        for (int core : code.cores) {
            std::vector<std::size_t> mine;
            for (std::size_t t = 0; t < block.tiles().size(); ++t)
                if (block.coreOfTile[t] == core) mine.push_back(t);
            emitCore(block, core, mine, residentAt, residentBytes, slotBytes, layouts, broadcast);
        }
        fuseChunkEpilogues();
    }

    // Elementwise ops folded into the computes they follow (FuseEpilogues.h), ids renumbered.
    void fuseChunkEpilogues() {
        std::vector<std::vector<InstrId>> streams(static_cast<std::size_t>(m_t.cores()));
        for (const Instruction& in : m_out.instructions)
            streams[static_cast<std::size_t>(in.core)].push_back(in.id);
        std::vector<std::int64_t> newId = fuseEpilogues(m_out.instructions, streams, m_t.workingMemory, m_g);
        // Then the boxes' layouts, reorders placed (ChooseLayouts.h).
        const std::vector<std::int64_t> placed =
            chooseLayouts(m_out.instructions, streams, m_t.workingMemory, m_g, m_t.channelGranule);
        for (std::int64_t& id : newId)
            if (id >= 0) id = placed[static_cast<std::size_t>(id)];
        for (std::size_t core = 0; core < streams.size(); ++core)
            m_out.instructionsOf[core] = static_cast<std::uint32_t>(streams[core].size());
        for (Chunk::DramSide& side : m_out.dramSides)
            side.instruction = static_cast<std::uint32_t>(newId[side.instruction]);
    }

  private:
    void emitCore(const TiledBlock& block, int core, const std::vector<std::size_t>& mine,
                  const std::map<std::uint32_t, std::uint64_t>& residentAt, std::uint64_t residentBytes,
                  std::uint64_t slotBytes, const std::vector<TileLayout>& layouts,
                  const std::vector<ir::ValueId>& broadcast) {
        const int id = block.block.id;
        std::map<std::uint32_t, int> pendingResident; // value -> tag not yet waited
        for (ir::ValueId v : block.resident()) {
            if (std::find(broadcast.begin(), broadcast.end(), v) != broadcast.end()) continue;
            const tiling::Region whole = tiling::fullRegion(m_g.value(v).shape);
            Provenance from{id, mine.empty() ? ir::OpId{} : firstReader(block.tiles()[mine.front()], v), -1};
            const int layout = dramLayout(v);
            pendingResident[v.index] =
                transfer(Way::Load, core, from, *m_load, dramAccess(v, whole, core),
                         sramAccess(residentAt.at(v.index), whole, whole, v, core, layout), v,
                         whole, layout);
        }
        std::vector<Slot> slots(static_cast<std::size_t>(block.buffering));
        std::vector<std::map<std::uint32_t, int>> pendingLoads(mine.size()); // per local tile: value -> tag

        auto slotBase = [&](std::size_t k) { return residentBytes + slotBytes * (k % slots.size()); };
        auto issueLoads = [&](std::size_t k) {
            Slot& slot = slots[k % slots.size()];
            const std::size_t t = mine[k];
            // The slot's previous tile: its stores and any load no op read must land first.
            for (int tag : slot.storeTags) wait(core, Provenance{id, {}, static_cast<std::int64_t>(t)}, tag);
            slot.storeTags.clear();
            if (k >= slots.size()) {
                for (auto [v, tag] : pendingLoads[k - slots.size()]) wait(core, Provenance{id, {}, static_cast<std::int64_t>(t)}, tag);
                pendingLoads[k - slots.size()].clear();
            }
            const tiling::TilePlan& tile = block.tiles()[t];
            for (const auto& [v, r] : tile.loads) {
                if (residentAt.count(v.index)) continue;
                const TileLayout::Placed& at = *layouts[t].find(v.index);
                Provenance from{id, firstReader(tile, v), static_cast<std::int64_t>(t)};
                const int layout = loadedLayout(v, r, at.held);
                pendingLoads[k][v.index] = transfer(
                    Way::Load, core, from, *m_load, dramAccess(v, r, core),
                    sramAccess(slotBase(k) + at.offset, at.held, r, v, core, layout), v, r, layout);
            }
        };

        if (!mine.empty()) issueLoads(0);
        for (std::size_t k = 0; k < mine.size(); ++k) {
            const std::size_t t = mine[k];
            const tiling::TilePlan& tile = block.tiles()[t];
            if (slots.size() > 1 && k + 1 < mine.size()) issueLoads(k + 1);
            for (ir::OpId opId : tile.ops) {
                const ir::Op& op = m_g.op(opId);
                Provenance from{id, opId, static_cast<std::int64_t>(t)};
                if (opId == tile.slicedOp && tile.slices() > 1) {
                    emitSlices(tile, op, from, core, {&pendingResident, &pendingLoads[k]},
                               layouts[t], residentAt, slotBase(k));
                    continue;
                }
                Compute c;
                c.opType = op.type;
                for (ir::ValueId in : op.inputs) {
                    if (!in.valid()) continue;
                    if (auto it = pendingResident.find(in.index); it != pendingResident.end()) {
                        wait(core, from, it->second);
                        pendingResident.erase(it);
                    }
                    if (auto it = pendingLoads[k].find(in.index); it != pendingLoads[k].end()) {
                        wait(core, from, it->second);
                        pendingLoads[k].erase(it);
                    }
                    if (auto o = operand(in, layouts[t], residentAt, slotBase(k))) c.inputs.push_back(std::move(*o));
                }
                double fraction = 0;
                for (ir::ValueId out : op.outputs) {
                    auto o = out.valid() ? operand(out, layouts[t], residentAt, slotBase(k)) : std::nullopt;
                    if (!o) continue;
                    std::int64_t total = m_g.value(out).elements();
                    if (total > 0) fraction = std::max(fraction, double(tiling::regionElements(o->region)) / double(total));
                    c.outputs.push_back(std::move(*o));
                }
                c.flops = op.cost.flops * fraction;
                append(core, from, std::move(c));
            }
            Slot& slot = slots[k % slots.size()];
            for (const auto& [v, r] : tile.stores) {
                const TileLayout::Placed& at = *layouts[t].find(v.index);
                Provenance from{id, m_g.value(v).producer, static_cast<std::int64_t>(t)};
                // The box is in its home's layout by then (ChooseLayouts reorders it if not).
                const int layout = dramLayout(v);
                slot.storeTags.push_back(
                    transfer(Way::Store, core, from, *m_store,
                             sramAccess(slotBase(k) + at.offset, at.held, r, v, core, layout),
                             dramAccess(v, r, core), v, r, layout));
            }
            if (slots.size() == 1 && k + 1 < mine.size()) issueLoads(k + 1);
        }
        // Loads never consumed (a tile reading nothing of them) are still waited.
        for (auto& pending : pendingLoads)
            for (auto [v, tag] : pending) wait(core, Provenance{id, {}, -1}, tag);
        for (auto [v, tag] : pendingResident) wait(core, Provenance{id, {}, -1}, tag);
        for (Slot& slot : slots)
            for (int tag : slot.storeTags) wait(core, Provenance{id, {}, -1}, tag);
    }

    // A convolution whose input channels the grid slices: slice 0 was loaded with the tile; each
    // later slice of its input and weights is loaded over the previous one, after that one's
    // compute, and accumulated into the output, which stays in place. The bias joins slice 0.
    void emitSlices(const tiling::TilePlan& tile, const ir::Op& op, const Provenance& from,
                    int core, std::array<std::map<std::uint32_t, int>*, 2> pending,
                    const TileLayout& layout,
                    const std::map<std::uint32_t, std::uint64_t>& residentAt, std::uint64_t base) {
        auto waitFor = [&](std::uint32_t value) { // a resident input's load, or the tile's
            for (std::map<std::uint32_t, int>* tags : pending)
                if (auto it = tags->find(value); it != tags->end()) {
                    wait(core, from, it->second);
                    tags->erase(it);
                }
        };
        const ir::ValueId x = op.inputs[0], w = op.inputs[1];
        const auto loaded = [&](ir::ValueId v) {
            return std::find_if(tile.loads.begin(), tile.loads.end(),
                                [&](const auto& l) { return l.first == v; })
                ->second;
        };
        const tiling::Region xFirst = loaded(x), wFirst = loaded(w);
        const std::uint64_t xAt = base + layout.find(x.index)->offset,
                            wAt = base + layout.find(w.index)->offset;
        std::vector<Operand> outputs;
        double fraction = 0;
        for (ir::ValueId out : op.outputs) {
            auto o = out.valid() ? operand(out, layout, residentAt, base) : std::nullopt;
            if (!o)
                continue;
            const std::int64_t total = m_g.value(out).elements();
            if (total > 0)
                fraction =
                    std::max(fraction, double(tiling::regionElements(o->region)) / double(total));
            outputs.push_back(std::move(*o));
        }
        for (std::int64_t s = 0; s < tile.slices(); ++s) {
            const tiling::Region xs =
                tiling::channelSlice(xFirst, tile.sliceChannels, s, tile.slicedChannels);
            const tiling::Region ws =
                tiling::channelSlice(wFirst, tile.sliceChannels, s, tile.slicedChannels);
            if (s > 0) {
                const int xTag =
                    transfer(Way::Load, core, from, *m_load, dramAccess(x, xs, core),
                             sramAccess(xAt, xs, xs, x, core, dramLayout(x)), x, xs, dramLayout(x));
                const int wTag = transfer(Way::Load, core, from, *m_load, dramAccess(w, ws, core),
                                          sramAccess(wAt, ws, ws, w, core), w, ws);
                wait(core, from, xTag);
                wait(core, from, wTag);
            }
            Compute c;
            c.opType = op.type;
            c.accumulate = s > 0;
            for (std::size_t i = 0; i < op.inputs.size(); ++i) {
                const ir::ValueId in = op.inputs[i];
                if (!in.valid() || (s > 0 && i >= 2))
                    continue;
                waitFor(in.index);
                if (in == x)
                    c.inputs.push_back({x, xs, xAt});
                else if (in == w)
                    c.inputs.push_back({w, ws, wAt});
                else if (auto o = operand(in, layout, residentAt, base))
                    c.inputs.push_back(std::move(*o));
            }
            c.outputs = outputs;
            c.flops = op.cost.flops * fraction * double(xs[1].size()) / double(tile.slicedChannels);
            append(core, from, std::move(c));
        }
    }

    // Where `v` is in working memory for this tile; nullopt when the tile holds none of it.
    std::optional<Operand> operand(ir::ValueId v, const TileLayout& layout,
                                   const std::map<std::uint32_t, std::uint64_t>& residentAt, std::uint64_t base) const {
        Operand o;
        o.value = v;
        if (auto it = residentAt.find(v.index); it != residentAt.end()) {
            o.region = tiling::fullRegion(m_g.value(v).shape);
            o.offset = it->second;
            return o;
        }
        const TileLayout::Placed* at = layout.find(v.index);
        if (!at) return std::nullopt;
        o.region = at->held;
        o.offset = base + at->offset;
        return o;
    }

    const ir::Graph& m_g;
    const target::Target& m_t;
    const Paths& m_paths;
    const target::TransferPath* m_load;
    const target::TransferPath* m_store;
    const target::TransferPath* m_broadcast;
    bool m_mainPerGroup;
    Chunk& m_out;
};

// Runs work(i) for every i < count, on `threads` threads taking indices in turn. An exception
// (out of memory) reaches the caller instead of ending the process.
template <class Work>
void forEachIndex(std::size_t count, unsigned threads, const Work& work) {
    std::atomic<std::size_t> next{0};
    std::vector<std::exception_ptr> failed(threads);
    auto run = [&](unsigned worker) {
        try {
            for (std::size_t i = next++; i < count; i = next++) work(i);
        } catch (...) {
            failed[worker] = std::current_exception();
            next = count; // the others stop at their next index
        }
    };
    std::vector<std::thread> helpers;
    for (unsigned i = 1; i < threads; ++i) helpers.emplace_back(run, i);
    run(0);
    for (std::thread& t : helpers) t.join();
    for (const std::exception_ptr& e : failed)
        if (e) std::rethrow_exception(e);
}

unsigned helperThreads(std::size_t work, std::size_t parallelFrom) {
    return work < parallelFrom ? 1u : std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
}

// Writes the blocks' chunks (side by side on big programs; a kept chunk when the cache has one)
// and splices them into the program in schedule order, with the barriers between dependent
// blocks.
class StreamWriter {
  public:
    explicit StreamWriter(CompileState& state) : m_state(state), m_g(state.graph), m_t(state.target) {
        m_program = &state.program;
        m_program->cores = m_t.cores();
        m_program->streams.assign(static_cast<std::size_t>(m_t.cores()), {});
        m_paths.load = m_t.pathBetween(m_t.mainMemory, m_t.workingMemory);
        m_paths.store = m_t.pathBetween(m_t.workingMemory, m_t.mainMemory);
        for (const target::TransferPath& path : m_t.paths)
            if (path.broadcast && path.source == m_t.mainMemory && path.destination == m_t.workingMemory)
                m_paths.broadcast = &path;
        const target::MemorySpace* main = m_t.findMemory(m_t.mainMemory);
        m_paths.mainPerGroup = main && main->scope == target::Scope::Group;
        m_paths.dramOf.assign(m_g.values.size(), nullptr);
        for (const DramBuffer& b : m_program->dram)
            if (b.value.index < m_paths.dramOf.size()) m_paths.dramOf[b.value.index] = &b;
    }

    bool hasPaths() {
        if (m_paths.load && m_paths.store) return true;
        m_state.diagnostics.push_back(error("target '" + m_t.name + "' has no transfer path between '" +
                                            m_t.mainMemory + "' and '" + m_t.workingMemory + "'"));
        return false;
    }

    void run() {
        if (!hasPaths()) return;
        gatherChunks();
        placeChunks();
        const std::size_t blocks = m_state.blocks.size();
        forEachIndex(blocks, helperThreads(m_program->instructions.size(), kParallelFromInstructions),
                     [&](std::size_t p) { fill(p); });
        m_program->blocks.reserve(blocks);
        for (std::size_t p = 0; p < blocks; ++p) {
            const Chunk& chunk = *m_sources[p];
            m_program->blocks.push_back(chunk.code);
            m_state.diagnostics.insert(m_state.diagnostics.end(), chunk.diagnostics.begin(), chunk.diagnostics.end());
        }
    }

    PlacedChunks placed() {
        PlacedChunks out;
        if (!hasPaths()) return out;
        gatherChunks();
        const std::size_t blocks = m_state.blocks.size();
        out.barrierBefore = barriersBefore(); // before the chunks written now move out
        out.dramOffsets.assign(m_paths.dramOf.size(), 0);
        for (std::size_t v = 0; v < out.dramOffsets.size(); ++v)
            if (const DramBuffer* home = dramOf(m_paths, static_cast<std::uint32_t>(v)))
                out.dramOffsets[v] = home->offset;
        out.chunks.resize(blocks);
        for (std::size_t p = 0; p < blocks; ++p)
            out.chunks[p] = m_kept[p] ? m_kept[p] : std::make_shared<const Chunk>(std::move(*m_owned[p]));
        for (std::size_t p = 0; p < blocks; ++p)
            m_state.diagnostics.insert(m_state.diagnostics.end(), out.chunks[p]->diagnostics.begin(),
                                       out.chunks[p]->diagnostics.end());
        return out;
    }

  private:
    static constexpr std::size_t kParallelFromInstructions = 20'000;

    struct ByteRange {
        std::uint64_t begin, end;
    };

    // Where a block's chunk goes in the program: after the barrier before it, if any.
    struct Placement {
        bool barrierBefore = false;
        int barrierId = 0;          // the barrier's id
        InstrId first = 0;          // the chunk's first instruction
        std::vector<std::size_t> streamFirst; // per core: where the chunk's share of its stream starts
        std::vector<int> tagBase;   // per core: transfers issued before, modulo the tag space
        int barrierBase = 0;        // barriers before the chunk
    };

    // Each block's chunk: the cache's, or written now (side by side on a big program).
    void gatherChunks() {
        const std::size_t blocks = m_state.blocks.size();
        CompileCache* cache = m_state.cache;
        m_sources.assign(blocks, nullptr);
        m_kept.assign(blocks, nullptr);
        std::vector<std::string> keys(blocks);
        std::vector<std::size_t> missing;
        for (std::size_t p = 0; p < blocks; ++p) {
            if (cache) {
                keys[p] = chunkKey(m_state.blocks[p]);
                m_kept[p] = cache->chunk(keys[p]);
                m_sources[p] = m_kept[p].get();
            }
            if (!m_sources[p]) missing.push_back(p);
        }
        m_fresh.clear();
        m_fresh.resize(missing.size());
        std::size_t tiles = 0;
        for (std::size_t p : missing) tiles += m_state.blocks[p].tiles().size();
        forEachIndex(missing.size(), helperThreads(tiles, kParallelFromTiles), [&](std::size_t i) {
            BlockWriter(m_state, m_paths, m_fresh[i]).emitBlock(m_state.blocks[missing[i]]);
        });
        for (std::size_t i = 0; i < missing.size(); ++i) {
            const std::size_t p = missing[i];
            if (cache) {
                // Kept for the next compile, so copied into this program rather than moved.
                m_kept[p] = std::make_shared<const Chunk>(std::move(m_fresh[i]));
                cache->keepChunk(keys[p], m_kept[p]);
                m_sources[p] = m_kept[p].get();
            } else {
                m_sources[p] = &m_fresh[i];
            }
        }
        m_owned.assign(blocks, nullptr);
        if (!cache)
            for (std::size_t i = 0; i < missing.size(); ++i) m_owned[missing[i]] = &m_fresh[i];
    }

    // Since the last barrier: the main-memory ranges read and written. A block needs a barrier
    // before it when it reads what was written (RAW), or writes over what was read or written
    // (WAR, WAW: the DRAM plan reuses space, and another core may still be on it). Per block:
    // whether a barrier goes before it.
    std::vector<std::uint8_t> barriersBefore() const {
        const std::size_t blocks = m_state.blocks.size();
        std::vector<std::uint8_t> before(blocks, 0);
        std::vector<ByteRange> read, written;
        for (std::size_t p = 0; p < blocks; ++p) {
            const Chunk& chunk = *m_sources[p];
            const std::vector<ByteRange> loads = rangesOf(chunk.loaded), stores = rangesOf(chunk.stored);
            // A broadcast lands in every core's working memory: no core may still be on the
            // previous block, so it starts after a barrier too. (None before the first block.)
            if (chunk.broadcasts || overlaps(loads, written) || overlaps(stores, read) || overlaps(stores, written)) {
                before[p] = p > 0;
                read.clear();
                written.clear();
            }
            read.insert(read.end(), loads.begin(), loads.end());
            written.insert(written.end(), stores.begin(), stores.end());
        }
        return before;
    }

    // Numbers the chunks' ids, tags and barriers as if written one after another, with the
    // barriers barriersBefore() asks for, and sizes the program.
    void placeChunks() {
        const std::size_t blocks = m_state.blocks.size();
        m_places.assign(blocks, {});
        const std::vector<std::uint8_t> before = barriersBefore();
        std::vector<int> nextTag(static_cast<std::size_t>(m_t.cores()), 0);
        std::vector<std::size_t> streamSize(static_cast<std::size_t>(m_t.cores()), 0);
        std::size_t size = 0;
        int barriers = 0;
        for (std::size_t p = 0; p < blocks; ++p) {
            const Chunk& chunk = *m_sources[p];
            Placement& place = m_places[p];
            if (before[p]) {
                place.barrierBefore = true;
                place.barrierId = barriers++;
                size += static_cast<std::size_t>(m_t.cores());
                for (std::size_t& n : streamSize) ++n;
            }
            place.first = static_cast<InstrId>(size);
            place.tagBase = nextTag;
            place.barrierBase = barriers;
            place.streamFirst = streamSize;
            for (std::size_t c = 0; c < streamSize.size(); ++c) streamSize[c] += chunk.instructionsOf[c];
            size += chunk.instructions.size();
            for (std::size_t c = 0; c < nextTag.size(); ++c) nextTag[c] = (nextTag[c] + chunk.transfersOf[c]) % kTagSpace;
            barriers += chunk.barriers;
        }
        m_program->instructions.resize(size);
        for (std::size_t c = 0; c < streamSize.size(); ++c) m_program->streams[c].resize(streamSize[c]);
    }

    // Puts block p's barrier (if any) and chunk into their places, renumbered: ids after the
    // instructions before, tags after the core's running count (modulo the tag space), barrier
    // ids after the program's, main-memory offsets after the tensor's DRAM home.
    void fill(std::size_t p) {
        const Placement& place = m_places[p];
        std::vector<Instruction>& out = m_program->instructions;
        if (place.barrierBefore)
            for (int c = 0; c < m_t.cores(); ++c) {
                Instruction& in = out[place.first - static_cast<InstrId>(m_t.cores()) + static_cast<InstrId>(c)];
                in.id = place.first - static_cast<InstrId>(m_t.cores()) + static_cast<InstrId>(c);
                in.core = c;
                in.from = Provenance{};
                in.body = Barrier{place.barrierId};
                m_program->streams[static_cast<std::size_t>(c)][place.streamFirst[static_cast<std::size_t>(c)] - 1] = in.id;
            }
        Chunk* owned = m_owned[p];
        const Chunk& chunk = *m_sources[p];
        std::vector<std::size_t> streamAt = place.streamFirst;
        for (std::size_t i = 0; i < chunk.instructions.size(); ++i) {
            Instruction& in = out[place.first + i];
            if (owned) in = std::move(owned->instructions[i]);
            else in = chunk.instructions[i];
            const auto core = static_cast<std::size_t>(in.core);
            const int tagBase = place.tagBase[core];
            in.id += place.first;
            m_program->streams[core][streamAt[core]++] = in.id;
            if (auto* t = std::get_if<Transfer>(&in.body)) t->tag = (t->tag + tagBase) % kTagSpace;
            else if (auto* w = std::get_if<Wait>(&in.body)) w->tag = (w->tag + tagBase) % kTagSpace;
            else if (auto* b = std::get_if<Barrier>(&in.body)) b->id += place.barrierBase;
        }
        for (const Chunk::DramSide& side : chunk.dramSides) {
            Transfer& t = std::get<Transfer>(out[place.first + side.instruction].body);
            if (const DramBuffer* home = dramOf(m_paths, t.value.index))
                (side.source ? t.source : t.destination).offset += home->offset;
        }
    }

    std::vector<ByteRange> rangesOf(const std::vector<std::uint32_t>& values) const {
        std::vector<ByteRange> ranges;
        for (std::uint32_t v : values)
            if (const DramBuffer* home = dramOf(m_paths, v)) ranges.push_back({home->offset, home->offset + home->bytes});
        return ranges;
    }

    static bool overlaps(const std::vector<ByteRange>& a, const std::vector<ByteRange>& b) {
        for (const ByteRange& x : a)
            for (const ByteRange& y : b)
                if (x.begin < y.end && y.begin < x.end) return true;
        return false;
    }

    CompileState& m_state;
    const ir::Graph& m_g;
    const target::Target& m_t;
    Program* m_program = nullptr;
    Paths m_paths;
    std::vector<Chunk> m_fresh;                          // written by this compile
    std::vector<std::shared_ptr<const Chunk>> m_kept;    // per block: the cache's, when there is one
    std::vector<const Chunk*> m_sources;                 // per block: its chunk
    std::vector<Chunk*> m_owned;                         // per block: its chunk when this compile may move from it
    std::vector<Placement> m_places;
};

} // namespace

void insertTransfers(CompileState& state) { StreamWriter(state).run(); }

PlacedChunks placeChunks(CompileState& state) { return StreamWriter(state).placed(); }

} // namespace strata::compiler
