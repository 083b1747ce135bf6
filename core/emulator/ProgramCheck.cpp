#include "emulator/ProgramCheck.h"

#include <fmt/format.h>

#include <unordered_map>

namespace strata::emulator {
namespace {

constexpr std::size_t kMaxProblems = 20; // a broken program gets a readable list, not millions

class Checker {
  public:
    Checker(const compiler::Program& p, const target::Target& t, const ir::Graph& g, std::vector<Diagnostic>& d)
        : m_program(p), m_target(t), m_graph(g), m_diagnostics(d) {}

    CheckedProgram run() {
        const std::size_t n = m_program.instructions.size();
        m_checked.pathOf.assign(n, 0xffff);
        m_checked.waitsFor.assign(n, kNoInstruction);
        m_checked.opClassOf.assign(n, ir::OpClass::Other);
        if (!shapeFits()) return m_checked;

        std::vector<std::uint8_t> seen(n, 0);
        std::vector<std::size_t> barrierCounts;
        for (int core = 0; core < m_program.cores && !full(); ++core) {
            std::unordered_map<int, std::uint32_t> lastTransferWithTag;
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
                const compiler::Instruction& in = m_program.instructions[id];
                if (in.core != core) problem(fmt::format("{} belongs to core {} but is in core {}'s stream", instructionName(id), in.core, core));
                if (const auto* t = std::get_if<compiler::Transfer>(&in.body)) {
                    const target::TransferPath* path = m_target.findPath(t->path);
                    if (!path) {
                        problem(fmt::format("{}: target '{}' has no path '{}'", instructionName(id), m_target.name, t->path));
                        continue;
                    }
                    m_checked.pathOf[id] = static_cast<std::uint16_t>(path - m_target.paths.data());
                    lastTransferWithTag[t->tag] = id;
                } else if (const auto* w = std::get_if<compiler::Wait>(&in.body)) {
                    auto found = lastTransferWithTag.find(w->tag);
                    if (found == lastTransferWithTag.end())
                        problem(fmt::format("{}: waits on tag t{}, which core {} has not issued before it", instructionName(id), w->tag, core));
                    else
                        m_checked.waitsFor[id] = found->second;
                } else if (const auto* c = std::get_if<compiler::Compute>(&in.body)) {
                    if (in.from.op.valid() && in.from.op.index >= m_graph.ops.size())
                        problem(fmt::format("{}: op {} is not in the model ({} ops)", instructionName(id), in.from.op.index, m_graph.ops.size()));
                    else if (in.from.op.valid())
                        m_checked.opClassOf[id] = m_graph.op(in.from.op).opClass;
                    for (const auto* operands : {&c->inputs, &c->outputs})
                        for (const compiler::Operand& o : *operands)
                            if (o.value.valid() && o.value.index >= m_graph.values.size())
                                problem(fmt::format("{}: value {} is not in the model", instructionName(id), o.value.index));
                } else if (const auto* b = std::get_if<compiler::Barrier>(&in.body)) {
                    if (b->id != static_cast<int>(barriers))
                        problem(fmt::format("{}: core {}'s barrier number {} is b{}", instructionName(id), core, barriers, b->id));
                    ++barriers;
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
        return m_checked;
    }

  private:
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
        for (std::size_t i = 0; i < m_program.instructions.size(); ++i)
            if (m_program.instructions[i].id != i) {
                problem(fmt::format("instruction {} has id {}", i, m_program.instructions[i].id));
                return false;
            }
        return true;
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
    std::size_t m_problems = 0;
};

} // namespace

std::string instructionName(std::uint32_t id) { return fmt::format("i{:06}", id); }

CheckedProgram checkProgram(const compiler::Program& program, const target::Target& target, const ir::Graph& graph,
                            std::vector<Diagnostic>& diagnostics) {
    return Checker(program, target, graph, diagnostics).run();
}

} // namespace strata::emulator
