#include "compiler/passes/Verify.h"

#include <algorithm>
#include <array>
#include <functional>
#include <future>
#include <map>
#include <set>

namespace strata::compiler {
namespace {

constexpr std::size_t kParallelFrom = 20'000; // instructions; below, threads cost more than they save

struct Range {
    std::uint64_t begin = 0, end = 0;
    bool overlaps(const Range& o) const { return begin < o.end && o.begin < end; }
};

// Memory names are short and mostly the same length ("DRAM", "L2BM"): compared inline rather
// than through a call to memcmp for every access.
bool sameName(const std::string& a, const std::string& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) return false;
    return true;
}

Range rangeOf(const Access& a, std::uint32_t elementBytes) {
    std::int64_t last = 0;
    for (std::size_t d = 0; d < a.shape.size(); ++d) {
        if (a.shape[d] == 0) return {a.offset, a.offset};
        last += (a.shape[d] - 1) * a.strides[d];
    }
    return {a.offset, a.offset + static_cast<std::uint64_t>(last + 1) * elementBytes};
}

Range rangeOf(const Operand& o, std::uint32_t elementBytes) {
    return {o.offset, o.offset + static_cast<std::uint64_t>(tiling::regionElements(o.region)) * elementBytes};
}

// Bytes a broadcast put into a further core's working memory, readable there from the next
// barrier on.
struct Delivery {
    int core;
    std::uint32_t value;
    Range bytes;
};
using Deliveries = std::vector<std::vector<Delivery>>; // by epoch

class CoreChecker {
  public:
    CoreChecker(const Program& p, const ir::Graph& g, const target::Target& t, int core,
                const std::vector<std::uint32_t>& elementBytes, const std::vector<int>& storeEpoch,
                const Deliveries& deliveries, std::vector<Diagnostic>& out)
        : m_p(p), m_g(g), m_t(t), m_core(core), m_elementBytes(elementBytes), m_storeEpoch(storeEpoch),
          m_deliveries(deliveries), m_out(out), m_capacity(t.workingMemoryBytes()) {}

    void run() {
        for (InstrId id : m_p.streams[static_cast<std::size_t>(m_core)]) {
            const Instruction& in = m_p.instructions[id];
            if (const auto* t = std::get_if<Transfer>(&in.body)) transfer(in, *t);
            else if (const auto* w = std::get_if<Wait>(&in.body)) wait(in, *w);
            else if (const auto* c = std::get_if<Compute>(&in.body)) compute(in, *c);
            else barrier(in);
        }
        for (const InFlight& f : m_inFlight) report("transfer never waited", f.id, "unwaited");
    }

  private:
    std::uint32_t elementBytes(ir::ValueId v) const { return m_elementBytes[v.index]; }
    bool isWorking(const Access& a) const { return sameName(a.memory, m_t.workingMemory); }
    bool inFlight(int tag) const {
        return std::any_of(m_inFlight.begin(), m_inFlight.end(), [&](const InFlight& f) { return f.tag == tag; });
    }

    void report(const std::string& what, InstrId id, const std::string& kind) {
        if (!m_reported.insert(kind).second) return;
        const Instruction& in = m_p.instructions[id];
        Location where;
        if (in.from.block >= 0) where.block = schedule::blockName(in.from.block);
        if (in.from.op.valid()) where.node = m_g.op(in.from.op).name;
        m_out.push_back(error("core " + std::to_string(m_core) + ", instruction " + std::to_string(id) + ": " + what, where));
    }

    // Something writes `r`: refuse if an in-flight transfer touches it, and forget what was there.
    void overwrite(const Range& r, InstrId id) {
        for (const InFlight& f : m_inFlight)
            if (f.usesWorking && f.working.overlaps(r))
                report("overwrites working memory that in-flight transfer " + std::to_string(f.id) + " uses", id, "race");
        std::erase_if(m_ready, [&](const auto& e) { return e.second.overlaps(r); });
    }

    void checkBounds(const Access& a, std::uint32_t bytes, InstrId id) {
        if (isWorking(a) && rangeOf(a, bytes).end > m_capacity) report("access beyond the working memory", id, "overflow");
    }

    void transfer(const Instruction& in, const Transfer& t) {
        if (inFlight(t.tag)) report("tag " + std::to_string(t.tag) + " reused while in flight", in.id, "tag");
        checkBounds(t.source, elementBytes(t.value), in.id);
        checkBounds(t.destination, elementBytes(t.value), in.id);
        if (isWorking(t.destination)) {
            overwrite(rangeOf(t.destination, elementBytes(t.value)), in.id);
            // A tensor written by a block must be read after a barrier that follows its store.
            if (t.value.index < m_storeEpoch.size() && m_storeEpoch[t.value.index] >= m_epoch)
                report("loads '" + m_g.value(t.value).name + "' before the barrier after its store", in.id, "dram-order");
        } else {
            Range src = rangeOf(t.source, elementBytes(t.value));
            if (!covered(t.value, src)) report("stores working memory no compute wrote", in.id, "store-source");
        }
        InFlight f{t.tag, in.id, t.value.index};
        const Access& sram = isWorking(t.source) ? t.source : t.destination;
        f.usesWorking = isWorking(sram);
        if (f.usesWorking) f.working = rangeOf(sram, elementBytes(t.value));
        f.lands = isWorking(t.destination);
        if (f.lands) f.landed = rangeOf(t.destination, elementBytes(t.value));
        m_inFlight.push_back(f);
    }

    void wait(const Instruction& in, const Wait& w) {
        auto it = std::find_if(m_inFlight.begin(), m_inFlight.end(), [&](const InFlight& f) { return f.tag == w.tag; });
        if (it == m_inFlight.end()) {
            report("waits on tag " + std::to_string(w.tag) + ", which is not in flight", in.id, "wait");
            return;
        }
        if (it->lands) m_ready.emplace_back(it->value, it->landed);
        m_inFlight.erase(it);
    }

    bool covered(ir::ValueId v, const Range& r) const {
        return std::any_of(m_ready.begin(), m_ready.end(), [&](const auto& e) {
            return e.first == v.index && e.second.begin <= r.begin && r.end <= e.second.end;
        });
    }

    void compute(const Instruction& in, const Compute& c) {
        for (const Operand& o : c.inputs) {
            Range r = rangeOf(o, elementBytes(o.value));
            if (r.end > m_capacity) report("operand beyond the working memory", in.id, "overflow");
            if (!covered(o.value, r))
                report("reads '" + m_g.value(o.value).name + "' before its load was waited (or after it was overwritten)",
                       in.id, "read");
        }
        for (const Operand& o : c.outputs) {
            Range r = rangeOf(o, elementBytes(o.value));
            if (r.end > m_capacity) report("result beyond the working memory", in.id, "overflow");
            overwrite(r, in.id);
            m_ready.emplace_back(o.value.index, r);
        }
    }

    void barrier(const Instruction& in) {
        if (!m_inFlight.empty()) report("reaches a barrier with transfers in flight", in.id, "barrier");
        if (static_cast<std::size_t>(m_epoch) < m_deliveries.size())
            for (const Delivery& d : m_deliveries[static_cast<std::size_t>(m_epoch)])
                if (d.core == m_core) {
                    overwrite(d.bytes, in.id);
                    m_ready.emplace_back(d.value, d.bytes);
                }
        ++m_epoch;
    }

    const Program& m_p;
    const ir::Graph& m_g;
    const target::Target& m_t;
    int m_core;
    const std::vector<std::uint32_t>& m_elementBytes; // by value index
    const std::vector<int>& m_storeEpoch; // by value index; -1: never stored
    const Deliveries& m_deliveries;
    std::vector<Diagnostic>& m_out;
    std::uint64_t m_capacity;
    // A transfer in flight, with the working-memory bytes it uses (source or destination) and
    // those it leaves ready once waited (its destination), worked out once at its issue.
    struct InFlight {
        int tag = 0;
        InstrId id = 0;
        std::uint32_t value = 0;
        bool usesWorking = false, lands = false;
        Range working, landed;
    };
    // In issue order: a handful, so a vector beats a map.
    std::vector<InFlight> m_inFlight;
    std::vector<std::pair<std::uint32_t, Range>> m_ready; // value index, bytes it holds
    std::set<std::string> m_reported;
    int m_epoch = 0;
};

// One main-memory access by a transfer. The race check walks many of them per access, so what
// it compares is held here, not read through the transfer.
struct MainAccess {
    static constexpr std::size_t kInlineRank = 4;
    Range bytes;                 // the span from first to last byte
    const Transfer* transfer;
    int core;
    bool write;
    InstrId id;
    std::uint32_t value;         // the transfer's
    std::uint32_t rank;          // of its region
    std::array<tiling::Interval, kInlineRank> box; // the region, when rank <= kInlineRank

    MainAccess(Range bytes, const Transfer* transfer, int core, bool write, InstrId id)
        : bytes(bytes), transfer(transfer), core(core), write(write), id(id), value(transfer->value.index),
          rank(static_cast<std::uint32_t>(transfer->region.size())), box{} {
        if (rank <= kInlineRank) std::copy(transfer->region.begin(), transfer->region.end(), box.begin());
    }

    const tiling::Interval* region() const { return rank <= kInlineRank ? box.data() : transfer->region.data(); }

    // Strided boxes of one tensor interleave in memory, so for those compare the regions;
    // distinct tensors whose spans meet share bytes (the plan reused space).
    bool conflicts(const MainAccess& o) const {
        if (!bytes.overlaps(o.bytes)) return false;
        if (value != o.value) return true;
        const tiling::Interval* mine = region();
        const tiling::Interval* theirs = o.region();
        for (std::size_t d = 0; d < rank && d < o.rank; ++d) {
            const auto& a = mine[d];
            const auto& b = theirs[d];
            if (!(a.begin < b.end && b.begin < a.end)) return false;
        }
        return true;
    }
};

// What one core's stream tells the checks of every core, gathered in one walk over it: the epoch
// of its last store of each tensor, the bytes its broadcasts deliver, and its main-memory
// accesses by epoch.
struct StreamFacts {
    std::vector<int> storeEpoch;                      // by value index; -1: never stored
    Deliveries deliveries;                            // by epoch
    std::vector<std::vector<MainAccess>> mainAccesses; // by epoch
};

StreamFacts streamFacts(const Program& p, const ir::Graph& g, const target::Target& t,
                        const std::vector<std::uint32_t>& elementBytes, std::size_t core) {
    StreamFacts facts;
    facts.storeEpoch.assign(g.values.size(), -1);
    facts.mainAccesses.resize(1);
    std::size_t epoch = 0;
    for (InstrId id : p.streams[core]) {
        const Instruction& in = p.instructions[id];
        if (in.kind() == InstrKind::Barrier) {
            if (++epoch >= facts.mainAccesses.size()) facts.mainAccesses.resize(epoch + 1);
            continue;
        }
        const auto* tr = std::get_if<Transfer>(&in.body);
        if (!tr) continue;
        const std::uint32_t bytes = elementBytes[tr->value.index];
        const bool write = sameName(tr->destination.memory, t.mainMemory);
        if (write && tr->value.index < facts.storeEpoch.size())
            facts.storeEpoch[tr->value.index] = std::max(facts.storeEpoch[tr->value.index], static_cast<int>(epoch));
        if (!tr->alsoTo.empty()) {
            if (facts.deliveries.size() <= epoch) facts.deliveries.resize(epoch + 1);
            for (int other : tr->alsoTo) facts.deliveries[epoch].push_back({other, tr->value.index, rangeOf(tr->destination, bytes)});
        }
        const Access& main = write ? tr->destination : tr->source;
        if (sameName(main.memory, t.mainMemory))
            facts.mainAccesses[epoch].emplace_back(rangeOf(main, bytes), tr, static_cast<int>(core), write, id);
    }
    return facts;
}

// Between two barriers, cores run in any order relative to each other: a main-memory write must
// not overlap another core's read or write of the same bytes (the DRAM plan reuses space, so
// this is about bytes, not tensors). An epoch's accesses: every core's, in core order.
void checkMainMemoryRaces(const std::vector<StreamFacts>& facts, const Program& p, const ir::Graph& g,
                          const target::Target& t, std::vector<Diagnostic>& out) {
    std::size_t epochs = 0;
    for (const StreamFacts& f : facts) epochs = std::max(epochs, f.mainAccesses.size());
    std::vector<const MainAccess*> accesses, writes;
    for (std::size_t e = 0; e < epochs; ++e) {
        accesses.clear();
        writes.clear();
        for (const StreamFacts& f : facts)
            if (e < f.mainAccesses.size())
                for (const MainAccess& a : f.mainAccesses[e]) accesses.push_back(&a);
        for (const MainAccess* a : accesses)
            if (a->write) writes.push_back(a);
        std::sort(writes.begin(), writes.end(), [](const auto* a, const auto* b) { return a->bytes.begin < b->bytes.begin; });
        std::vector<std::uint64_t> maxEnd(writes.size()); // of writes[0..i]: where to stop walking back
        for (std::size_t i = 0; i < writes.size(); ++i)
            maxEnd[i] = std::max(writes[i]->bytes.end, i ? maxEnd[i - 1] : 0);
        for (const MainAccess* access : accesses) {
            const MainAccess& a = *access;
            auto it = std::lower_bound(writes.begin(), writes.end(), a.bytes.end,
                                       [](const MainAccess* w, std::uint64_t end) { return w->bytes.begin < end; });
            for (auto i = static_cast<std::size_t>(it - writes.begin()); i-- > 0 && maxEnd[i] > a.bytes.begin;) {
                const MainAccess& w = *writes[i];
                if (w.core == a.core || !w.conflicts(a)) continue;
                const Instruction& in = p.instructions[w.id];
                Location where;
                if (in.from.block >= 0) where.block = schedule::blockName(in.from.block);
                if (in.from.op.valid()) where.node = g.op(in.from.op).name;
                out.push_back(error("core " + std::to_string(w.core) + ", instruction " + std::to_string(w.id) +
                                        ": writes " + t.mainMemory + " bytes that core " + std::to_string(a.core) +
                                        " " + (a.write ? "writes" : "reads") + " (instruction " + std::to_string(a.id) +
                                        ") with no barrier between",
                                    where));
                return; // one race says enough: the barriers are wrong
            }
        }
    }
}

} // namespace

std::vector<Diagnostic> verifyProgram(const Program& program, const ir::Graph& graph, const target::Target& target) {
    std::vector<Diagnostic> out;
    // Both steps read the program only and write their own results, so a big program has its
    // cores' streams walked side by side; results are joined in a fixed order (cores, then races).
    const std::size_t cores = program.streams.size();
    const bool parallel = program.instructions.size() >= kParallelFrom;
    auto forEachCore = [&](const std::function<void(std::size_t)>& work, const std::function<void()>& alongside) {
        if (!parallel) {
            for (std::size_t core = 0; core < cores; ++core) work(core);
            alongside();
            return;
        }
        std::vector<std::future<void>> jobs;
        for (std::size_t core = 0; core < cores; ++core) jobs.push_back(std::async(std::launch::async, work, core));
        alongside();
        for (auto& job : jobs) job.get();
    };

    std::vector<std::uint32_t> elementBytes(graph.values.size());
    for (std::size_t v = 0; v < elementBytes.size(); ++v)
        elementBytes[v] = static_cast<std::uint32_t>(ir::dtypeSize(graph.values[v].dtype));
    std::vector<StreamFacts> facts(cores);
    forEachCore([&](std::size_t core) { facts[core] = streamFacts(program, graph, target, elementBytes, core); }, [] {});
    // Over all cores: the epoch (barriers passed) of the last store of every tensor, and the
    // deliveries of each epoch, in core order.
    std::vector<int> storeEpoch(graph.values.size(), -1);
    Deliveries deliveries;
    for (StreamFacts& f : facts) {
        for (std::size_t v = 0; v < storeEpoch.size(); ++v) storeEpoch[v] = std::max(storeEpoch[v], f.storeEpoch[v]);
        if (deliveries.size() < f.deliveries.size()) deliveries.resize(f.deliveries.size());
        for (std::size_t e = 0; e < f.deliveries.size(); ++e)
            deliveries[e].insert(deliveries[e].end(), f.deliveries[e].begin(), f.deliveries[e].end());
    }

    std::vector<std::vector<Diagnostic>> found(cores + 1);
    forEachCore(
        [&](std::size_t core) {
            CoreChecker(program, graph, target, static_cast<int>(core), elementBytes, storeEpoch, deliveries, found[core])
                .run();
        },
        [&] { checkMainMemoryRaces(facts, program, graph, target, found.back()); });
    for (auto& part : found) out.insert(out.end(), std::make_move_iterator(part.begin()), std::make_move_iterator(part.end()));
    return out;
}

void verify(CompileState& state) {
    auto found = verifyProgram(state.program, state.graph, state.target);
    state.diagnostics.insert(state.diagnostics.end(), found.begin(), found.end());
}

} // namespace strata::compiler
