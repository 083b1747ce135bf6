#include "compiler/passes/VerifyChecks.h"

#include "schedule/Schedule.h"

namespace strata::compiler::checks {

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

std::vector<std::uint32_t> elementBytesOf(const ir::Graph& g) {
    std::vector<std::uint32_t> bytes(g.values.size());
    for (std::size_t v = 0; v < bytes.size(); ++v) bytes[v] = static_cast<std::uint32_t>(ir::dtypeSize(g.values[v].dtype));
    return bytes;
}

void CoreChecker::report(const std::string& what, InstrId id, const std::string& kind) {
    if (!m_reported.insert(kind).second) return;
    const Instruction& in = m_p.instructions[id];
    Location where;
    if (in.from.block >= 0) where.block = schedule::blockName(in.from.block);
    if (in.from.op.valid()) where.node = m_g.op(in.from.op).name;
    m_out.push_back(error("core " + std::to_string(m_core) + ", instruction " + std::to_string(id) + ": " + what, where));
}

void CoreChecker::transfer(const Instruction& in, const Transfer& t) {
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

void CoreChecker::wait(const Instruction& in, const Wait& w) {
    auto it = std::find_if(m_inFlight.begin(), m_inFlight.end(), [&](const InFlight& f) { return f.tag == w.tag; });
    if (it == m_inFlight.end()) {
        report("waits on tag " + std::to_string(w.tag) + ", which is not in flight", in.id, "wait");
        return;
    }
    if (it->lands) m_ready.emplace_back(it->value, it->landed);
    m_inFlight.erase(it);
}

void CoreChecker::compute(const Instruction& in, const Compute& c) {
    for (const Operand& o : c.inputs) {
        Range r = rangeOf(o, elementBytes(o.value));
        if (r.end > m_capacity) report("operand beyond the working memory", in.id, "overflow");
        if (!covered(o.value, r))
            report("reads '" + m_g.value(o.value).name + "' before its load was waited (or after it was overwritten)",
                   in.id, "read");
    }
    if (!c.epilogue.empty()) epilogue(in, c);
    for (const Operand& o : c.outputs) {
        Range r = rangeOf(o, elementBytes(o.value));
        if (r.end > m_capacity) report("result beyond the working memory", in.id, "overflow");
        // A later input-channel slice adds to the partial sums the earlier ones left in place.
        if (c.accumulate && !covered(o.value, r))
            report("accumulates into '" + m_g.value(o.value).name +
                       "', which no compute wrote in place",
                   in.id, "accumulate");
        overwrite(r, in.id);
        m_ready.emplace_back(o.value.index, r);
    }
}

// A fused epilogue: each step reads the previous one's output (the op's first), its further
// operands are ready, and the box it runs on in place is none the compute reads.
void CoreChecker::epilogue(const Instruction& in, const Compute& c) {
    if (!in.from.op.valid() || c.outputs.size() != 1) {
        report("has an epilogue but no op or not one output", in.id, "epilogue");
        return;
    }
    ir::ValueId chained = m_g.op(in.from.op).outputs.empty() ? ir::ValueId{} : m_g.op(in.from.op).outputs[0];
    for (const EpilogueStep& s : c.epilogue) {
        const ir::Op& op = m_g.op(s.op);
        if (s.input != chained || std::find(op.inputs.begin(), op.inputs.end(), s.input) == op.inputs.end() ||
            op.outputs.empty()) {
            report("epilogue step " + op.name + " does not read the previous step's output", in.id, "epilogue");
            return;
        }
        for (const Operand& o : s.others) {
            Range r = rangeOf(o, elementBytes(o.value));
            if (r.end > m_capacity) report("operand beyond the working memory", in.id, "overflow");
            if (!covered(o.value, r))
                report("reads '" + m_g.value(o.value).name + "' before its load was waited (or after it was overwritten)",
                       in.id, "read");
        }
        chained = op.outputs[0];
    }
    const Operand& out = c.outputs[0];
    const Range written = rangeOf(out, elementBytes(out.value));
    if (out.value != chained)
        report("its output is not its last epilogue step's", in.id, "epilogue");
    for (const Operand& o : c.inputs)
        if (rangeOf(o, elementBytes(o.value)).overlaps(written))
            report("its epilogue writes over '" + m_g.value(o.value).name + "', which the compute reads", in.id,
                   "epilogue");
}

void CoreChecker::barrier(const Instruction& in) {
    if (!m_inFlight.empty()) report("reaches a barrier with transfers in flight", in.id, "barrier");
    if (static_cast<std::size_t>(m_epoch) < m_deliveries.size())
        for (const Delivery& d : m_deliveries[static_cast<std::size_t>(m_epoch)])
            if (d.core == m_core) {
                overwrite(d.bytes, in.id);
                m_ready.emplace_back(d.value, d.bytes);
            }
    ++m_epoch;
}

bool mainAccessOf(const Program& p, const target::Target& t, const std::vector<std::uint32_t>& elementBytes, InstrId id,
                  std::vector<MainAccess>& out) {
    const Instruction& in = p.instructions[id];
    const auto* tr = std::get_if<Transfer>(&in.body);
    if (!tr) return false;
    const bool write = sameName(tr->destination.memory, t.mainMemory);
    const Access& main = write ? tr->destination : tr->source;
    if (!sameName(main.memory, t.mainMemory)) return false;
    out.emplace_back(rangeOf(main, elementBytes[tr->value.index]), tr, in.core, write, id);
    return true;
}

StreamFacts streamFacts(const Program& p, const ir::Graph& g, const target::Target& t,
                        const std::vector<std::uint32_t>& elementBytes, std::size_t core, std::size_t from,
                        std::size_t to, bool loads) {
    StreamFacts facts;
    facts.storeEpoch.assign(g.values.size(), -1);
    if (loads) facts.firstLoadEpoch.assign(g.values.size(), -1);
    facts.mainAccesses.resize(1);
    std::size_t epoch = 0;
    const std::vector<InstrId>& stream = p.streams[core];
    for (std::size_t i = from; i < to; ++i) {
        const InstrId id = stream[i];
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
        if (loads && tr->value.index < facts.firstLoadEpoch.size() && facts.firstLoadEpoch[tr->value.index] < 0 &&
            sameName(tr->destination.memory, t.workingMemory))
            facts.firstLoadEpoch[tr->value.index] = static_cast<int>(epoch);
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

std::pair<const MainAccess*, const MainAccess*> findRace(const std::vector<const MainAccess*>& accesses,
                                                         RaceScratch& scratch) {
    std::vector<const MainAccess*>& writes = scratch.writes;
    std::vector<std::uint64_t>& maxEnd = scratch.maxEnd; // of writes[0..i]: where to stop walking back
    writes.clear();
    for (const MainAccess* a : accesses)
        if (a->write) writes.push_back(a);
    std::sort(writes.begin(), writes.end(), [](const auto* a, const auto* b) { return a->bytes.begin < b->bytes.begin; });
    maxEnd.resize(writes.size());
    for (std::size_t i = 0; i < writes.size(); ++i) maxEnd[i] = std::max(writes[i]->bytes.end, i ? maxEnd[i - 1] : 0);
    for (const MainAccess* access : accesses) {
        const MainAccess& a = *access;
        auto it = std::lower_bound(writes.begin(), writes.end(), a.bytes.end,
                                   [](const MainAccess* w, std::uint64_t end) { return w->bytes.begin < end; });
        for (auto i = static_cast<std::size_t>(it - writes.begin()); i-- > 0 && maxEnd[i] > a.bytes.begin;) {
            const MainAccess& w = *writes[i];
            if (w.core == a.core || !w.conflicts(a)) continue;
            return {&w, &a};
        }
    }
    return {nullptr, nullptr};
}

Diagnostic raceError(const MainAccess& w, const MainAccess& a, const Program& p, const ir::Graph& g,
                     const target::Target& t) {
    const Instruction& in = p.instructions[w.id];
    Location where;
    if (in.from.block >= 0) where.block = schedule::blockName(in.from.block);
    if (in.from.op.valid()) where.node = g.op(in.from.op).name;
    return error("core " + std::to_string(w.core) + ", instruction " + std::to_string(w.id) + ": writes " + t.mainMemory +
                     " bytes that core " + std::to_string(a.core) + " " + (a.write ? "writes" : "reads") +
                     " (instruction " + std::to_string(a.id) + ") with no barrier between",
                 where);
}

} // namespace strata::compiler::checks
