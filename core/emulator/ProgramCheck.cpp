#include "emulator/ProgramCheck.h"

#include "compiler/EpilogueRule.h"
#include "emulator/CachedReads.h"
#include "emulator/ComputeCost.h"
#include "emulator/ConvTaps.h"
#include "emulator/CopyRuns.h"
#include "emulator/OtherCoresLines.h"
#include "emulator/ResidentRows.h"
#include "emulator/SharedReads.h"
#include "emulator/TransferRows.h"
#include "emulator/WeightRegime.h"
#include "tiling/Region.h"

#include <algorithm>
#include <climits>
#include <fmt/format.h>
#include <future>
#include <unordered_map>
#include <utility>

namespace strata::emulator {
namespace {

constexpr std::size_t kMaxProblems = 20; // a broken program gets a readable list, not millions

// The last transfer issued with each tag on one core. Compiled programs use small tags (a flat
// table); anything else falls back to a map.
class TagTable {
  public:
    void clear() {
        std::fill(m_small.begin(), m_small.end(), kNoInstruction);
        m_large.clear();
    }
    void set(int tag, std::uint32_t transfer) {
        if (tag >= 0 && tag < kSmall) {
            if (static_cast<std::size_t>(tag) >= m_small.size()) m_small.resize(static_cast<std::size_t>(tag) + 1, kNoInstruction);
            m_small[static_cast<std::size_t>(tag)] = transfer;
        } else {
            m_large[tag] = transfer;
        }
    }
    std::uint32_t find(int tag) const {
        if (tag >= 0 && tag < kSmall) return static_cast<std::size_t>(tag) < m_small.size() ? m_small[static_cast<std::size_t>(tag)] : kNoInstruction;
        auto it = m_large.find(tag);
        return it == m_large.end() ? kNoInstruction : it->second;
    }

  private:
    static constexpr int kSmall = 1 << 16;
    std::vector<std::uint32_t> m_small;
    std::unordered_map<int, std::uint32_t> m_large;
};

// Read-only facts every describer shares: per graph value its bytes per element, per op its
// throughput on the target.
struct GraphFacts {
    std::vector<std::uint64_t> elementBytes;
    std::vector<double> opThroughput;
};

// What one range of instructions is (one sequential walk over them). Ranges are independent, so
// a large program is described on two threads, each range with its own problems, broadcast
// deliveries and paths used, merged afterwards in range order (the result does not depend on
// how the program was split). A transfer's or wait's `link` holds its tag until walkStreams()
// resolves the waits.
class Describer {
  public:
    Describer(const compiler::Program& p, const target::Target& t, const ir::Graph& g, const GraphFacts& facts,
              std::vector<Step>& steps)
        : pathsUsed(t.paths.size(), 0), m_program(p), m_target(t), m_graph(g), m_facts(facts), m_steps(steps) {}

    void describeRange(std::size_t begin, std::size_t end) {
        for (std::size_t id = begin; id < end && problems.size() < kMaxProblems; ++id) describe(static_cast<std::uint32_t>(id));
    }

    std::vector<std::string> problems;
    std::vector<Delivery> deliveries;
    std::vector<std::uint8_t> pathsUsed;

  private:
    // tiling::regionElements, here where it runs once per operand of every compute.
    static std::int64_t elementsOf(const tiling::Region& region) {
        std::int64_t n = 1;
        for (const tiling::Interval& i : region) n *= i.size();
        return n;
    }

    void describe(std::uint32_t id) {
        const compiler::Instruction& in = m_program.instructions[id];
        Step& step = m_steps[id];
        if (in.id != id) problem(fmt::format("instruction {} has id {}", id, in.id));
        if (in.core < 0 || in.core >= m_program.cores) {
            problem(fmt::format("{} belongs to core {}, the program has {}", instructionName(id), in.core, m_program.cores));
            return;
        }
        step.kind = in.kind();
        step.core = static_cast<std::uint16_t>(in.core);
        step.block = in.from.block;
        step.tile = static_cast<std::int32_t>(std::clamp<std::int64_t>(in.from.tile, -1, INT32_MAX));
        if (in.from.op.valid() && in.from.op.index >= m_graph.ops.size())
            problem(fmt::format("{}: op {} is not in the model ({} ops)", instructionName(id), in.from.op.index, m_graph.ops.size()));
        else if (in.from.op.valid())
            step.op = in.from.op.index;
        if (const auto* t = std::get_if<compiler::Transfer>(&in.body)) {
            const target::TransferPath* path = findPath(t->path);
            if (!path) return problem(fmt::format("{}: target '{}' has no path '{}'", instructionName(id), m_target.name, t->path));
            step.path = static_cast<std::uint16_t>(path - m_target.paths.data());
            pathsUsed[step.path] = 1;
            // Weights have their own figures on a path that sets them (target::WeightReads).
            if (t->value.valid() && t->value.index >= m_graph.values.size())
                return problem(fmt::format("{}: value {} is not in the model", instructionName(id), t->value.index));
            if (path->weightReads && t->value.valid() && m_graph.values[t->value.index].isConstant &&
                t->source.memory == m_target.mainMemory)
                step.read = target::ReadKind::Weight;
            // The latency, the ramp and the rows' cost pass before the bytes move (Step::amount);
            // the bytes then share bandwidth. (markCachedReads may change the fixed part.)
            step.amount =
                path->fixedCyclesFor(step.read, double(t->bytes)) +
                (path->rowOverheadCycles > 0 ? path->rowOverheadCycles * double(transferRows(*t))
                                             : 0);
            step.bytes = t->bytes;
            step.link = static_cast<std::uint32_t>(t->tag);
            for (int core : t->alsoTo) {
                if (core < 0 || core >= m_program.cores)
                    return problem(fmt::format("{}: delivers to core {}, the program has {}", instructionName(id), core, m_program.cores));
                deliveries.push_back({id, static_cast<std::uint16_t>(core)});
            }
        } else if (const auto* w = std::get_if<compiler::Wait>(&in.body)) {
            step.link = static_cast<std::uint32_t>(w->tag);
        } else if (const auto* c = std::get_if<compiler::Compute>(&in.body)) {
            // One walk over the operands (they are out of cache): check each, sum its bytes and
            // the input and output elements (computeWork's sums, in the same order).
            std::uint64_t bytes = 0;
            double inputElements = 0, outputElements = 0;
            for (const auto* operands : {&c->inputs, &c->outputs})
                for (const compiler::Operand& o : *operands) {
                    const std::int64_t elements = elementsOf(o.region);
                    (operands == &c->outputs ? outputElements : inputElements) += double(elements);
                    if (!o.value.valid()) continue;
                    if (o.value.index >= m_graph.values.size())
                        return problem(fmt::format("{}: value {} is not in the model", instructionName(id), o.value.index));
                    // An accumulating compute reads its output as well as writing it.
                    const std::uint64_t times = operands == &c->outputs && c->accumulate ? 2 : 1;
                    bytes += times * static_cast<std::uint64_t>(elements) *
                             m_facts.elementBytes[o.value.index];
                }
            // A reorder (compiler/passes/ChooseLayouts.h) moves its box's elements once within
            // working memory: data movement per output element, whatever op it serves.
            const ir::OpClass opClass = c->isReorder()               ? ir::OpClass::DataMovement
                                        : step.op != kNoInstruction ? m_graph.ops[step.op].opClass
                                                                    : ir::OpClass::Other;
            const bool macs = opClass == ir::OpClass::Conv || opClass == ir::OpClass::MatMul;
            const double throughput = step.op != kNoInstruction && !c->isReorder()
                                          ? m_facts.opThroughput[step.op]
                                          : m_target.throughput.of(opClass);
            // Output channels that are not whole vectors cost as if they were (padded lanes);
            // taps that fall in the padding are skipped (ConvTaps.h).
            const double lanes =
                macs && step.op != kNoInstruction
                    ? paddedLaneFactor(*c, m_graph.ops[step.op], m_target.channelGranule) *
                          inBoundsTapShare(*c, m_graph.ops[step.op], m_graph)
                    : 1;
            const double work =
                macs                                ? c->flops / 2 * lanes
                : opClass == ir::OpClass::Reduction ? inputElements
                : step.op != kNoInstruction && !c->isReorder() && isLayerNorm(m_graph.ops[step.op])
                    ? layerNormWork(*c)
                    : outputElements;
            step.amount = cyclesAtThroughput(work, throughput, m_target);
            if (c->isReorder())
                step.amount += reorderFarBytes(double(bytes), m_target) *
                               m_target.overheads.reorderFarByteCycles;
            if (step.op != kNoInstruction && !c->isReorder()) {
                const ir::Op& op = m_graph.ops[step.op];
                step.amount += weightReadCycles(*c, op, m_graph, m_target);
                step.amount += inCallReorderCycles(*c, op, m_graph, m_target);
                if (m_target.overheads.copyRunCycles > 0 && opClass == ir::OpClass::DataMovement)
                    step.amount += copyRuns(*c, op, m_graph) * m_target.overheads.copyRunCycles;
            }
            // A fused epilogue (compiler/passes/FuseEpilogues.h): each step's elementwise work on
            // the output box while it is in cache, with no overhead of its own, and its further
            // operands' bytes; the intermediate is neither written nor read again.
            for (const compiler::EpilogueStep& e : c->epilogue) {
                if (!e.op.valid() || e.op.index >= m_graph.ops.size())
                    return problem(fmt::format("{}: epilogue op {} is not in the model", instructionName(id), e.op.index));
                const double stepThroughput = m_facts.opThroughput[e.op.index];
                step.amount += stepThroughput > 0 ? outputElements / stepThroughput : 0;
                // A SiLU step (its Mul's op) also runs its Sigmoid.
                if (const ir::Op* sigmoid =
                        e.opType == "SiLU" && e.input.valid() &&
                                m_graph.values[e.input.index].producer.valid()
                            ? compiler::siluSigmoid(
                                  m_graph, m_graph.op(m_graph.values[e.input.index].producer))
                            : nullptr) {
                    const double sigmoidThroughput =
                        m_facts
                            .opThroughput[m_graph.values[sigmoid->outputs[0].index].producer.index];
                    step.amount += sigmoidThroughput > 0 ? outputElements / sigmoidThroughput : 0;
                }
                for (const compiler::Operand& o : e.others)
                    if (o.value.valid() && o.value.index < m_graph.values.size())
                        bytes += static_cast<std::uint64_t>(elementsOf(o.region)) * m_facts.elementBytes[o.value.index];
            }
            step.bytes = bytes;
        } else if (const auto* b = std::get_if<compiler::Barrier>(&in.body)) {
            step.link = static_cast<std::uint32_t>(b->id);
        }
    }

    // Transfers mostly alternate between a load and a store path: look a name up only when it is
    // neither of the last two found.
    const target::TransferPath* findPath(const std::string& name) {
        if (m_lastPath && m_lastPath->name == name) return m_lastPath;
        std::swap(m_lastPath, m_otherPath);
        if (!m_lastPath || m_lastPath->name != name) m_lastPath = m_target.findPath(name);
        return m_lastPath;
    }

    void problem(std::string message) { problems.push_back(std::move(message)); }

    const compiler::Program& m_program;
    const target::Target& m_target;
    const ir::Graph& m_graph;
    const GraphFacts& m_facts;
    std::vector<Step>& m_steps;
    const target::TransferPath* m_lastPath = nullptr;
    const target::TransferPath* m_otherPath = nullptr; // the one found before m_lastPath
};

class Checker {
  public:
    Checker(const compiler::Program& p, const target::Target& t, const ir::Graph& g, std::vector<Diagnostic>& d)
        : m_program(p), m_target(t), m_graph(g), m_diagnostics(d) {}

    CheckedProgram run() {
        const std::size_t n = m_program.instructions.size();
        m_checked.steps.assign(n, Step{});
        m_checked.pathsUsed.assign(m_target.paths.size(), 0);
        if (!shapeFits()) return std::move(m_checked);
        describeAll();
        if (!full()) walkStreams();
        if (m_problems == 0) {
            markCachedReads(m_program, m_target, m_checked.steps);
            markSharedReads(m_program, m_target, m_checked.steps);
            chargeStoresIntoOtherCoresLines(m_program, m_target, m_checked.steps);
            chargeResidentRows(m_program, m_target, m_checked.steps);
            scaleOneCoreWork();
        }
        return std::move(m_checked);
    }

  private:
    // A compute in a block on one core, on a target of several, runs its work at the
    // one-core factor (target::Target::oneCoreWorkFactor); its overhead stays.
    void scaleOneCoreWork() {
        const double factor = m_target.oneCoreWorkFactor;
        if (factor == 1 || m_target.cores() < 2)
            return;
        std::unordered_map<int, std::size_t> coresOf;
        for (const compiler::BlockCode& b : m_program.blocks)
            coresOf[b.block] = b.cores.size();
        const double overhead = m_target.overheads.computeCycles;
        for (Step& step : m_checked.steps) {
            if (step.kind != compiler::InstrKind::Compute)
                continue;
            const auto cores = coresOf.find(step.block);
            if (cores != coresOf.end() && cores->second == 1 && step.amount > overhead)
                step.amount = overhead + (step.amount - overhead) * factor;
        }
    }

    // From this many instructions a second thread describes the second half: the walk is bound
    // by reading the instructions from memory, and a thread costs about as much as 1,000 of them.
    static constexpr std::size_t kParallelFrom = 20000;

    void describeAll() {
        GraphFacts facts;
        facts.elementBytes.reserve(m_graph.values.size());
        for (const ir::Value& v : m_graph.values) facts.elementBytes.push_back(ir::dtypeSize(v.dtype));
        facts.opThroughput.reserve(m_graph.ops.size());
        for (const ir::Op& op : m_graph.ops) facts.opThroughput.push_back(throughputOf(op, m_graph, m_target));

        const std::size_t n = m_checked.steps.size();
        std::vector<Describer> parts;
        parts.emplace_back(m_program, m_target, m_graph, facts, m_checked.steps);
        if (n >= kParallelFrom) {
            parts.emplace_back(m_program, m_target, m_graph, facts, m_checked.steps);
            auto second = std::async(std::launch::async, [&parts, n] { parts[1].describeRange(n / 2, n); });
            parts[0].describeRange(0, n / 2);
            second.get();
        } else {
            parts[0].describeRange(0, n);
        }
        for (Describer& part : parts) {
            for (std::string& message : part.problems) problem(std::move(message));
            m_checked.deliveries.insert(m_checked.deliveries.end(), part.deliveries.begin(), part.deliveries.end());
            for (std::size_t p = 0; p < part.pathsUsed.size(); ++p) m_checked.pathsUsed[p] |= part.pathsUsed[p];
        }
    }

    // Cores, streams, paths and ids as the rest of the check assumes them.
    bool shapeFits() {
        if (m_program.cores < 1 || m_program.cores > m_target.cores()) {
            problem(fmt::format("the program has {} cores, target '{}' has {}", m_program.cores, m_target.name, m_target.cores()));
            return false;
        }
        if (m_program.streams.size() != static_cast<std::size_t>(m_program.cores)) {
            problem(fmt::format("the program has {} streams for {} cores", m_program.streams.size(), m_program.cores));
            return false;
        }
        if (m_target.paths.size() >= 0xffff) {
            problem("the target has too many paths");
            return false;
        }
        return true;
    }

    // Every instruction in exactly its own core's stream; each wait after a transfer with its tag
    // (resolved to that transfer); barriers numbered in order and as many on every core.
    void walkStreams() {
        const std::size_t n = m_checked.steps.size();
        std::vector<std::uint8_t> seen(n, 0);
        std::vector<std::size_t> barrierCounts;
        for (int core = 0; core < m_program.cores && !full(); ++core) {
            m_tags.clear();
            std::size_t barriers = 0;
            for (compiler::InstrId id : m_program.streams[static_cast<std::size_t>(core)]) {
                if (full()) break;
                if (id >= n) {
                    problem(fmt::format("core {}'s stream names instruction {}, the program has {}", core, id, n));
                    continue;
                }
                if (seen[id]++) {
                    problem(fmt::format("{} appears in a stream twice", instructionName(id)));
                    continue;
                }
                Step& step = m_checked.steps[id];
                if (step.core != core) {
                    problem(fmt::format("{} belongs to core {} but is in core {}'s stream", instructionName(id), step.core, core));
                    continue;
                }
                const auto tag = static_cast<int>(step.link);
                switch (step.kind) {
                case compiler::InstrKind::Transfer: m_tags.set(tag, id); break;
                case compiler::InstrKind::Wait:
                    step.link = m_tags.find(tag);
                    if (step.link == kNoInstruction)
                        problem(fmt::format("{}: waits on tag t{}, which core {} has not issued before it", instructionName(id), tag, core));
                    break;
                case compiler::InstrKind::Barrier:
                    if (tag != static_cast<int>(barriers))
                        problem(fmt::format("{}: core {}'s barrier number {} is b{}", instructionName(id), core, barriers, tag));
                    ++barriers;
                    break;
                case compiler::InstrKind::Compute: break;
                }
            }
            barrierCounts.push_back(barriers);
        }
        for (std::size_t core = 1; core < barrierCounts.size() && !full(); ++core)
            if (barrierCounts[core] != barrierCounts[0])
                problem(fmt::format("core {} reaches {} barriers, core 0 reaches {}: they would never all meet", core,
                                    barrierCounts[core], barrierCounts[0]));
        for (std::size_t id = 0; id < n && !full(); ++id)
            if (!seen[id]) problem(fmt::format("{} is in no stream", instructionName(static_cast<std::uint32_t>(id))));
        m_checked.barriers = barrierCounts.empty() ? 0 : barrierCounts[0];
    }

    bool full() const { return m_problems >= kMaxProblems; }
    void problem(std::string message) {
        if (++m_problems <= kMaxProblems) m_diagnostics.push_back(error("program: " + std::move(message)));
    }

    const compiler::Program& m_program;
    const target::Target& m_target;
    const ir::Graph& m_graph;
    std::vector<Diagnostic>& m_diagnostics;
    CheckedProgram m_checked;
    TagTable m_tags;
    std::size_t m_problems = 0;
};

} // namespace

std::string instructionName(std::uint32_t id) { return fmt::format("i{:06}", id); }

CheckedProgram checkProgram(const compiler::Program& program, const target::Target& target, const ir::Graph& graph,
                            std::vector<Diagnostic>& diagnostics) {
    // Weight reads are priced at the figures of the regime the model's weights put them in.
    std::optional<target::Target> regime;
    return Checker(program, withWeightRegime(target, graph, regime), graph, diagnostics).run();
}

} // namespace strata::emulator
