#include "compiler/passes/FuseEpilogues.h"

#include "compiler/EpilogueRule.h"
#include "compiler/emit/KernelCall.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace strata::compiler {
namespace {

struct Range {
    std::uint64_t begin = 0, end = 0;
    bool overlaps(const Range& o) const { return begin < o.end && o.begin < end; }
};

class Fuser {
  public:
    Fuser(std::vector<Instruction>& instructions, std::vector<std::vector<InstrId>>& streams,
          const std::string& workingMemory, const ir::Graph& g)
        : m_instructions(instructions), m_streams(streams), m_workingMemory(workingMemory), m_g(g),
          m_gone(instructions.size(), false) {}

    std::vector<std::int64_t> run() {
        for (std::size_t core = 0; core < m_streams.size(); ++core)
            fuseStream(m_streams[core], static_cast<int>(core));
        return renumber();
    }

  private:
    Range range(const Operand& o) const {
        const std::uint64_t bytes = ir::dtypeSize(m_g.value(o.value).dtype);
        return {o.offset,
                o.offset + static_cast<std::uint64_t>(tiling::regionElements(o.region)) * bytes};
    }

    std::vector<Range> ranges(const std::vector<Operand>& operands) const {
        std::vector<Range> out;
        for (const Operand& o : operands)
            out.push_back(range(o));
        return out;
    }

    static bool overlapsAny(const Range& r, const std::vector<Range>& rs) {
        return std::any_of(rs.begin(), rs.end(), [&](const Range& o) { return r.overlaps(o); });
    }

    // The working-memory bytes a transfer touches on `core` (empty for a main-memory side).
    std::vector<Range> workingRanges(const Transfer& t, int core) const {
        std::vector<Range> out;
        const std::uint64_t bytes = ir::dtypeSize(m_g.value(t.value).dtype);
        for (const Access* a : {&t.source, &t.destination}) {
            if (a->memory != m_workingMemory || a->instance != core)
                continue;
            std::int64_t last = 0;
            bool empty = false;
            for (std::size_t d = 0; d < a->shape.size(); ++d) {
                empty = empty || a->shape[d] == 0;
                last += (a->shape[d] - 1) * a->strides[d];
            }
            if (!empty)
                out.push_back(
                    {a->offset, a->offset + static_cast<std::uint64_t>(last + 1) * bytes});
        }
        return out;
    }

    // Whether the compute can lead a chain: its kernel is a whole convolution or a product.
    bool leads(const Instruction& in, const Compute& c) const {
        if (!in.from.op.valid() || c.accumulate || !c.epilogue.empty() || c.outputs.size() != 1 ||
            !takesEpilogues(m_g.op(in.from.op)))
            return false;
        auto call = lowerCompute(m_g, m_g.op(in.from.op), c);
        return call && !call->slicesChannels() &&
               (call->kernel == Kernel::Conv2d || call->kernel == Kernel::Gemm ||
                call->kernel == Kernel::MatMul);
    }

    void fuseStream(std::vector<InstrId>& stream, int core) {
        // Where each tag's transfers are issued: transfers keep their stream positions while
        // computes fold, so this is built once per stream.
        m_issues.clear();
        for (std::size_t k = 0; k < stream.size(); ++k)
            if (const auto* t = std::get_if<Transfer>(&m_instructions[stream[k]].body))
                m_issues[t->tag].push_back(k);
        for (std::size_t i = 0; i < stream.size(); ++i) {
            if (m_gone[stream[i]])
                continue;
            const Instruction& first = m_instructions[stream[i]];
            const auto* c = std::get_if<Compute>(&first.body);
            if (!c || !leads(first, *c))
                continue;
            std::vector<Range> reads = ranges(c->inputs);
            std::size_t at = i; // the fused compute's stream position
            ir::OpId last = first.from.op;
            while (const ir::Op* next = epilogueConsumer(m_g, m_g.op(last))) {
                const ir::OpId reader = m_g.value(next->outputs[0]).producer;
                // SiLU folds two computes: its Sigmoid's, then its Mul's.
                const ir::Op* sigmoid = siluSigmoid(m_g, m_g.op(last));
                const ir::OpId firstReader =
                    sigmoid ? m_g.value(sigmoid->outputs[0]).producer : reader;
                const auto found = sinkTo(stream, core, at, firstReader, reader, reads);
                if (!found)
                    break;
                at = *found;
                last = reader;
            }
        }
        stream.erase(
            std::remove_if(stream.begin(), stream.end(), [&](InstrId id) { return m_gone[id]; }),
            stream.end());
    }

    // Folds the compute of `reader` that follows the fused compute at stream position `at` into
    // it, in the reader's place; returns that position, or nothing when a condition fails. For
    // SiLU, `firstReader` is its Sigmoid, whose compute comes first and folds too.
    std::optional<std::size_t> sinkTo(std::vector<InstrId>& stream, int core, std::size_t at,
                                      ir::OpId firstReader, ir::OpId reader,
                                      std::vector<Range>& reads) {
        const Instruction& producer = m_instructions[stream[at]];
        const Compute& made = std::get<Compute>(producer.body);
        const Operand& out = made.outputs[0];
        const Range outRange = range(out);
        std::optional<std::size_t> sigmoidAt;
        std::vector<Range> guarded; // the Sigmoid's box: only the Mul may touch it
        const auto touches = [&](const Range& r) {
            return overlapsAny(r, reads) || r.overlaps(outRange) || overlapsAny(r, guarded);
        };
        for (std::size_t j = at + 1; j < stream.size(); ++j) {
            Instruction& in = m_instructions[stream[j]];
            if (m_gone[in.id])
                continue;
            if (in.kind() == InstrKind::Barrier)
                return std::nullopt;
            if (const auto* w = std::get_if<Wait>(&in.body)) {
                // A transfer in flight across the compute's old place (its tag's last issue
                // before it) must not touch what it reads.
                if (auto issue = lastIssueBefore(w->tag, at))
                    for (const Range& r : workingRanges(
                             std::get<Transfer>(m_instructions[stream[*issue]].body), core))
                        if (touches(r))
                            return std::nullopt;
                continue;
            }
            if (const auto* t = std::get_if<Transfer>(&in.body)) {
                for (const Range& r : workingRanges(*t, core))
                    if (touches(r))
                        return std::nullopt;
                continue;
            }
            auto& c = std::get<Compute>(in.body);
            const bool isReader = in.from.op == reader && in.from.block == producer.from.block &&
                                  in.from.tile == producer.from.tile;
            // A core computes its tiles one after another: past another tile's compute, the
            // reader (of the producer's tile) cannot come. Stopping there keeps this linear.
            if (in.from.block != producer.from.block || in.from.tile != producer.from.tile)
                return std::nullopt;
            if (!sigmoidAt && firstReader != reader && in.from.op == firstReader) {
                if (!siluSigmoidFits(c, out))
                    return std::nullopt;
                sigmoidAt = j;
                guarded.push_back(range(c.outputs[0]));
                continue;
            }
            if (!isReader || (firstReader != reader && !sigmoidAt)) {
                for (const Operand& o : c.outputs)
                    if (touches(range(o)))
                        return std::nullopt;
                for (const Operand& o : c.inputs)
                    if (range(o).overlaps(outRange) || overlapsAny(range(o), guarded))
                        return std::nullopt;
                continue;
            }
            return fold(stream, at, j, sigmoidAt, reads);
        }
        return std::nullopt;
    }

    // SiLU's Sigmoid reads the whole output box where the compute wrote it, into a box of its
    // own of the same region.
    static bool siluSigmoidFits(const Compute& sigmoid, const Operand& out) {
        return !sigmoid.accumulate && sigmoid.inputs.size() == 1 &&
               sameBox(sigmoid.inputs[0], out) && sigmoid.outputs.size() == 1 &&
               sigmoid.outputs[0].region == out.region;
    }

    static bool sameBox(const Operand& a, const Operand& b) {
        return a.value == b.value && a.offset == b.offset && a.region == b.region;
    }

    std::optional<std::size_t> fold(std::vector<InstrId>& stream, std::size_t at, std::size_t j,
                                    std::optional<std::size_t> sigmoidAt,
                                    std::vector<Range>& reads) {
        Instruction& producer = m_instructions[stream[at]];
        Instruction& reader = m_instructions[stream[j]];
        const Compute& made = std::get<Compute>(producer.body);
        const Compute& step = std::get<Compute>(reader.body);
        const Operand& out = made.outputs[0];
        const ir::ValueId v = out.value;
        if (sigmoidAt)
            return foldSilu(stream, at, j, *sigmoidAt, reads);
        auto chained = std::find_if(step.inputs.begin(), step.inputs.end(),
                                    [&](const Operand& o) { return o.value == v; });
        if (chained == step.inputs.end() || chained->offset != out.offset ||
            chained->region != out.region || step.outputs.size() != 1 ||
            step.outputs[0].region != out.region || step.accumulate)
            return std::nullopt;
        // In place: the step's output box must not be one the fused compute reads.
        const Range stepOut = range(step.outputs[0]);
        if (overlapsAny(stepOut, reads))
            return std::nullopt;
        std::vector<Operand> others;
        for (const Operand& o : step.inputs)
            if (o.value != v)
                others.push_back(o);
        if (std::any_of(others.begin(), others.end(),
                        [&](const Operand& o) { return range(o).overlaps(stepOut); }))
            return std::nullopt;
        auto call = lowerCompute(m_g, m_g.op(reader.from.op), step);
        if (!call || (call->kernel != Kernel::Map && call->kernel != Kernel::Zip))
            return std::nullopt;

        Compute fused = made;
        fused.epilogue.push_back({reader.from.op, step.opType, step.flops, v, others});
        fused.outputs = step.outputs;
        for (const Operand& o : others)
            reads.push_back(range(o));
        Provenance from = producer.from;
        m_gone[producer.id] = true;
        reader.from = from;
        reader.body = std::move(fused);
        return j;
    }

    // SiLU: the Mul reads the output box and the Sigmoid's box, nothing else; one "SiLU" step
    // (the Mul's op) takes both computes' places.
    std::optional<std::size_t> foldSilu(std::vector<InstrId>& stream, std::size_t at, std::size_t j,
                                        std::size_t sigmoidAt, std::vector<Range>& reads) {
        Instruction& producer = m_instructions[stream[at]];
        Instruction& sigmoid = m_instructions[stream[sigmoidAt]];
        Instruction& reader = m_instructions[stream[j]];
        const Compute& made = std::get<Compute>(producer.body);
        const Compute& sig = std::get<Compute>(sigmoid.body);
        const Compute& step = std::get<Compute>(reader.body);
        const Operand& out = made.outputs[0];
        const bool operands =
            step.inputs.size() == 2 &&
            ((sameBox(step.inputs[0], out) && sameBox(step.inputs[1], sig.outputs[0])) ||
             (sameBox(step.inputs[1], out) && sameBox(step.inputs[0], sig.outputs[0])));
        if (!operands || step.outputs.size() != 1 || step.outputs[0].region != out.region ||
            step.accumulate || overlapsAny(range(step.outputs[0]), reads))
            return std::nullopt;
        Compute fused = made;
        fused.epilogue.push_back({reader.from.op, "SiLU", sig.flops + step.flops, out.value, {}});
        fused.outputs = step.outputs;
        Provenance from = producer.from;
        m_gone[producer.id] = true;
        m_gone[sigmoid.id] = true;
        reader.from = from;
        reader.body = std::move(fused);
        return j;
    }

    // Stream position of the last transfer with `tag` issued before position `at`.
    std::optional<std::size_t> lastIssueBefore(int tag, std::size_t at) const {
        const auto it = m_issues.find(tag);
        if (it == m_issues.end())
            return std::nullopt;
        const auto next = std::lower_bound(it->second.begin(), it->second.end(), at);
        if (next == it->second.begin())
            return std::nullopt;
        return *std::prev(next);
    }

    // Ids are list positions: the removed computes go, the rest keep their order (the fused
    // compute sits where its last step was, so every stream still issues ids in rising order).
    std::vector<std::int64_t> renumber() {
        std::vector<std::int64_t> newId(m_instructions.size(), -1);
        std::vector<Instruction> kept;
        kept.reserve(m_instructions.size());
        for (std::size_t i = 0; i < m_instructions.size(); ++i) {
            if (m_gone[i])
                continue;
            newId[i] = static_cast<std::int64_t>(kept.size());
            m_instructions[i].id = static_cast<InstrId>(kept.size());
            kept.push_back(std::move(m_instructions[i]));
        }
        m_instructions = std::move(kept);
        for (auto& stream : m_streams)
            for (InstrId& id : stream)
                id = static_cast<InstrId>(newId[id]);
        return newId;
    }

    std::vector<Instruction>& m_instructions;
    std::vector<std::vector<InstrId>>& m_streams;
    const std::string& m_workingMemory;
    const ir::Graph& m_g;
    std::vector<bool> m_gone;
    std::unordered_map<int, std::vector<std::size_t>> m_issues; // tag -> stream positions
};

} // namespace

std::vector<std::int64_t> fuseEpilogues(std::vector<Instruction>& instructions,
                                        std::vector<std::vector<InstrId>>& streams,
                                        const std::string& workingMemory, const ir::Graph& graph) {
    return Fuser(instructions, streams, workingMemory, graph).run();
}

void fuseEpilogues(Program& program, const ir::Graph& graph) {
    fuseEpilogues(program.instructions, program.streams, program.workingMemory, graph);
}

} // namespace strata::compiler
