#include "schedule/BlockOrder.h"

#include <algorithm>
#include <functional>
#include <queue>

namespace strata::schedule {

std::optional<ir::OpId> orderBlocks(Schedule& schedule, const ir::Graph& graph) {
    for (Block& b : schedule.blocks) std::sort(b.ops.begin(), b.ops.end());
    const std::size_t n = schedule.blocks.size();
    std::vector<int> blockOf = blockIndexOfOps(schedule, graph);

    std::vector<std::vector<int>> successors(n);
    std::vector<int> indegree(n, 0);
    for (std::size_t b = 0; b < n; ++b)
        for (ir::OpId opId : schedule.blocks[b].ops)
            for (ir::ValueId in : graph.op(opId).inputs) {
                if (!in.valid()) continue;
                ir::OpId producer = graph.value(in).producer;
                if (!producer.valid()) continue;
                int from = blockOf[producer.index];
                if (from < 0 || from == static_cast<int>(b)) continue;
                successors[static_cast<std::size_t>(from)].push_back(static_cast<int>(b));
            }
    for (auto& s : successors) {
        std::sort(s.begin(), s.end());
        s.erase(std::unique(s.begin(), s.end()), s.end());
        for (int to : s) ++indegree[static_cast<std::size_t>(to)];
    }

    // Kahn's algorithm; among ready blocks the one whose first op is earliest goes first.
    auto firstOp = [&](int b) {
        const auto& ops = schedule.blocks[static_cast<std::size_t>(b)].ops;
        return ops.empty() ? 0u : ops.front().index;
    };
    auto later = [&](int a, int b) { return firstOp(a) > firstOp(b); };
    std::priority_queue<int, std::vector<int>, decltype(later)> ready(later);
    for (std::size_t b = 0; b < n; ++b)
        if (indegree[b] == 0) ready.push(static_cast<int>(b));
    std::vector<int> order;
    while (!ready.empty()) {
        int b = ready.top();
        ready.pop();
        order.push_back(b);
        for (int to : successors[static_cast<std::size_t>(b)])
            if (--indegree[static_cast<std::size_t>(to)] == 0) ready.push(to);
    }
    if (order.size() != n) {
        for (std::size_t b = 0; b < n; ++b)
            if (indegree[b] > 0 && !schedule.blocks[b].ops.empty()) return schedule.blocks[b].ops.front();
        return ir::OpId(0);
    }
    std::vector<Block> sorted;
    sorted.reserve(n);
    for (int b : order) sorted.push_back(std::move(schedule.blocks[static_cast<std::size_t>(b)]));
    schedule.blocks = std::move(sorted);
    return std::nullopt;
}

std::optional<ConvexityViolation> findConvexityViolation(const ir::Graph& graph, const Block& block,
                                                         const std::vector<int>& blockOf,
                                                         int blockIndex) {
    if (block.ops.size() < 2) return std::nullopt;
    auto [lo, hi] = std::minmax_element(block.ops.begin(), block.ops.end());
    const std::uint32_t first = lo->index, last = hi->index;
    // A block that is a contiguous run of the topological order is convex: every path between
    // two of its ops stays inside the run.
    if (last - first + 1 == block.ops.size()) return std::nullopt;

    // Forward search from the block's outside consumers, within (first, last]: paths beyond the
    // block's last op cannot come back to it.
    struct Origin {
        ir::OpId leavesAt;
        ir::OpId outside;
    };
    std::vector<std::optional<Origin>> reached(last - first + 1);
    std::queue<ir::OpId> frontier;
    auto isOurs = [&](ir::OpId op) { return blockOf[op.index] == blockIndex; };
    auto visitConsumers = [&](ir::OpId from, const Origin& origin) -> std::optional<ConvexityViolation> {
        for (ir::ValueId out : graph.op(from).outputs) {
            if (!out.valid()) continue;
            for (ir::OpId c : graph.value(out).consumers) {
                if (c.index > last || c.index < first) continue;
                if (isOurs(c)) {
                    if (!isOurs(from)) return ConvexityViolation{origin.leavesAt, origin.outside, c};
                    continue;
                }
                auto& slot = reached[c.index - first];
                if (slot) continue;
                slot = isOurs(from) ? Origin{from, c} : origin;
                frontier.push(c);
            }
        }
        return std::nullopt;
    };
    for (ir::OpId op : block.ops)
        if (auto v = visitConsumers(op, Origin{op, op})) return v;
    while (!frontier.empty()) {
        ir::OpId op = frontier.front();
        frontier.pop();
        if (auto v = visitConsumers(op, *reached[op.index - first])) return v;
    }
    return std::nullopt;
}

} // namespace strata::schedule
