#include "schedule/Validate.h"

#include "schedule/BlockOrder.h"

#include <algorithm>
#include <set>

namespace strata::schedule {
namespace {

// Lists of ops missing or repeated are cut short so a broken file gives a readable report.
constexpr int kMaxReportedOps = 20;

Location at(const Block& block, std::string node = {}) {
    Location where;
    where.block = blockName(block.id);
    where.node = std::move(node);
    return where;
}

class Checker {
  public:
    Checker(const Schedule& s, const ir::Graph& g, const target::Target& t, std::vector<Diagnostic>& out)
        : m_schedule(s), m_graph(g), m_target(t), m_out(out) {}

    // False when the structure is too broken to tile: unknown ops, empty blocks, an op in two
    // blocks or none, a block out of order. Bad knobs (mp, buffering) still get analysed.
    bool checkStructure() {
        checkModel();
        bool ok = checkBlocks();
        ok = checkMembership() && ok;
        return ok && checkOrder();
    }

  private:
    void checkModel() {
        if (!m_schedule.modelHash.empty() && !m_graph.contentHash.empty() &&
            m_schedule.modelHash != m_graph.contentHash)
            m_out.push_back(error("schedule was made for another model (content hash " + m_schedule.modelHash +
                                  ", this model's is " + m_graph.contentHash + ")"));
    }

    bool checkBlocks() {
        bool ok = true;
        std::set<int> ids;
        for (const Block& b : m_schedule.blocks) {
            if (!ids.insert(b.id).second) m_out.push_back(error("block id used twice", at(b)));
            if (b.ops.empty()) {
                m_out.push_back(error("block has no ops", at(b)));
                ok = false;
            }
            for (ir::OpId op : b.ops)
                if (op.index >= m_graph.ops.size()) {
                    m_out.push_back(error("op #" + std::to_string(op.index) + " is not in the model", at(b)));
                    ok = false;
                }
            if (b.mp < 1 || b.mp > m_target.maxMp())
                m_out.push_back(error("mp " + std::to_string(b.mp) + " is outside 1.." +
                                          std::to_string(m_target.maxMp()) + " (target '" + m_target.name + "')",
                                      at(b)));
            if (b.buffering != 1 && b.buffering != 2)
                m_out.push_back(error("buffering " + std::to_string(b.buffering) + " must be 1 or 2", at(b)));
        }
        return ok;
    }

    bool checkMembership() {
        std::vector<const Block*> owner(m_graph.ops.size(), nullptr);
        int repeated = 0;
        for (const Block& b : m_schedule.blocks)
            for (ir::OpId op : b.ops) {
                if (op.index >= owner.size()) continue; // reported by checkBlocks
                const Block*& slot = owner[op.index];
                if (slot && ++repeated <= kMaxReportedOps) {
                    m_out.push_back(error(slot == &b ? "op is listed twice in the block"
                                                     : "op is in two blocks: " + blockName(slot->id) + " and " +
                                                           blockName(b.id),
                                          at(b, m_graph.op(op).name)));
                }
                slot = &b;
            }
        int missing = 0;
        for (std::size_t i = 0; i < owner.size(); ++i)
            if (!owner[i] && ++missing <= kMaxReportedOps) {
                Location where;
                where.node = m_graph.ops[i].name;
                m_out.push_back(error("op is in no block", where));
            }
        if (missing > kMaxReportedOps)
            m_out.push_back(error(std::to_string(missing - kMaxReportedOps) + " more ops are in no block"));
        if (repeated > kMaxReportedOps)
            m_out.push_back(error(std::to_string(repeated - kMaxReportedOps) + " more ops are in two blocks"));
        return repeated == 0 && missing == 0;
    }

    bool checkOrder() {
        std::vector<int> blockOf = blockIndexOfOps(m_schedule, m_graph);
        bool convex = true;
        for (std::size_t b = 0; b < m_schedule.blocks.size(); ++b) {
            const Block& block = m_schedule.blocks[b];
            auto v = findConvexityViolation(m_graph, block, blockOf, static_cast<int>(b));
            if (!v) continue;
            convex = false;
            const Block& other = m_schedule.blocks[static_cast<std::size_t>(blockOf[v->outside.index])];
            m_out.push_back(error("block is not convex: the result of '" + m_graph.op(v->leavesAt).name +
                                      "' leaves it through '" + m_graph.op(v->outside).name + "' (" +
                                      blockName(other.id) + ") and comes back at '" +
                                      m_graph.op(v->reentersAt).name + "'",
                                  at(block, m_graph.op(v->reentersAt).name)));
        }
        if (!convex) return false; // the order check would only repeat the same cycles
        for (std::size_t b = 0; b < m_schedule.blocks.size(); ++b)
            for (ir::OpId opId : m_schedule.blocks[b].ops)
                for (ir::ValueId in : m_graph.op(opId).inputs) {
                    if (!in.valid()) continue;
                    ir::OpId producer = m_graph.value(in).producer;
                    if (!producer.valid()) continue;
                    int from = blockOf[producer.index];
                    if (from <= static_cast<int>(b)) continue;
                    const Block& block = m_schedule.blocks[b];
                    m_out.push_back(error("block runs before " + blockName(m_schedule.blocks[static_cast<std::size_t>(from)].id) +
                                              ", which makes its input '" + m_graph.value(in).name + "'",
                                          at(block, m_graph.op(opId).name)));
                    return false; // one is enough: the order is wrong
                }
        return true;
    }

    const Schedule& m_schedule;
    const ir::Graph& m_graph;
    const target::Target& m_target;
    std::vector<Diagnostic>& m_out;
};

} // namespace

ScheduleCheck checkSchedule(const Schedule& schedule, const ir::Graph& graph, const target::Target& target,
                            AnalysisCache* cache) {
    ScheduleCheck check;
    Checker checker(schedule, graph, target, check.diagnostics);
    if (checker.checkStructure())
        check.analysis = analyzeSchedule(schedule, graph, target, check.diagnostics, cache);
    return check;
}

std::vector<Diagnostic> validate(const Schedule& schedule, const ir::Graph& graph, const target::Target& target) {
    return checkSchedule(schedule, graph, target).diagnostics;
}

} // namespace strata::schedule
