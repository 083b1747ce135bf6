#include "search/Moves.h"

#include "schedule/BlockOrder.h"
#include "schedule/Edits.h"

#include <algorithm>
#include <set>

namespace strata::search {
namespace {

using schedule::Block;
using schedule::Schedule;

enum class Move { Merge, Split, MoveOp, Mp, Tile, Buffering };

// Fusion moves are drawn twice as often as knob moves: the partition is where most of the
// difference lies, and each knob move has fewer distinct outcomes.
std::vector<Move> movesOf(const SearchSpace& space) {
    std::vector<Move> moves;
    if (space.fusion)
        for (int i = 0; i < 2; ++i)
            moves.insert(moves.end(), {Move::Merge, Move::Split, Move::MoveOp});
    if (space.mp)
        moves.push_back(Move::Mp);
    if (space.tiles)
        moves.push_back(Move::Tile);
    if (space.buffering)
        moves.push_back(Move::Buffering);
    return moves;
}

// The blocks (by index) holding a producer or a consumer of `op`, other than `own`.
std::vector<int> touchingBlocks(const ir::Graph& graph, const std::vector<int>& blockOf,
                                ir::OpId op, int own) {
    std::set<int> out;
    for (ir::ValueId in : graph.op(op).inputs)
        if (in.valid() && graph.value(in).producer.valid())
            out.insert(blockOf[graph.value(in).producer.index]);
    for (ir::ValueId result : graph.op(op).outputs)
        if (result.valid())
            for (ir::OpId c : graph.value(result).consumers)
                out.insert(blockOf[c.index]);
    out.erase(own);
    out.erase(-1);
    return {out.begin(), out.end()};
}

template <class T> const T& pick(const std::vector<T>& items, Random& random) {
    return items[random.below(items.size())];
}

std::optional<Schedule> accepted(schedule::EditResult result) {
    if (!result)
        return std::nullopt;
    return std::move(result).value();
}

std::optional<Schedule> mergeMove(const Schedule& s, const ir::Graph& graph, Random& random) {
    const int index = static_cast<int>(random.below(s.blocks.size()));
    const std::vector<int> blockOf = schedule::blockIndexOfOps(s, graph);
    std::set<int> neighbours;
    for (ir::OpId op : s.blocks[index].ops)
        for (int b : touchingBlocks(graph, blockOf, op, index))
            neighbours.insert(b);
    if (neighbours.empty())
        return std::nullopt;
    const int other = pick(std::vector<int>(neighbours.begin(), neighbours.end()), random);
    return accepted(schedule::mergeBlocks(s, graph, s.blocks[index].id, s.blocks[other].id));
}

std::optional<Schedule> splitMove(const Schedule& s, const ir::Graph& graph, Random& random) {
    const Block& block = s.blocks[random.below(s.blocks.size())];
    if (block.ops.size() < 2)
        return std::nullopt;
    const ir::OpId at = block.ops[1 + random.below(block.ops.size() - 1)];
    return accepted(schedule::splitBlock(s, graph, block.id, at));
}

// Moves the first or the last op of a block across the boundary into a neighbouring block.
std::optional<Schedule> moveOpMove(const Schedule& s, const ir::Graph& graph, Random& random) {
    const int index = static_cast<int>(random.below(s.blocks.size()));
    const Block& block = s.blocks[index];
    const ir::OpId op = random.chance(0.5) ? block.ops.front() : block.ops.back();
    const std::vector<int> blockOf = schedule::blockIndexOfOps(s, graph);
    const std::vector<int> targets = touchingBlocks(graph, blockOf, op, index);
    if (targets.empty())
        return std::nullopt;
    return accepted(schedule::moveOp(s, graph, op, s.blocks[pick(targets, random)].id));
}

std::optional<Schedule> mpMove(const Schedule& s, const target::Target& target, Random& random) {
    const Block& block = s.blocks[random.below(s.blocks.size())];
    std::vector<int> choices = mpChoices(target);
    std::erase(choices, block.mp);
    if (choices.empty())
        return std::nullopt;
    return accepted(schedule::setMp(s, block.id, pick(choices, random)));
}

// Halves or doubles one dimension of the block's tile (the resolved one when it is auto), or
// goes back to auto.
std::optional<Schedule> tileMove(const Schedule& s, const ir::Graph& graph,
                                 const target::Target& target, Random& random,
                                 schedule::AnalysisCache& analysis) {
    const Block& block = s.blocks[random.below(s.blocks.size())];
    if (!block.tile.isAuto() && random.chance(0.25))
        return accepted(schedule::setTile(s, graph, block.id, {}));
    std::vector<Diagnostic> ignored;
    const schedule::BlockAnalysis a =
        schedule::analyzeBlock(block, graph, target, ignored, &analysis);
    if (!a.analysed || !a.anchor.valid())
        return std::nullopt;
    const ir::Shape& shape = graph.value(a.anchor).shape;
    ir::Shape extents = block.tile.extents.value_or(a.cost.grid.extents);
    if (extents.size() != shape.size() || shape.empty())
        return std::nullopt;
    const std::size_t d = random.below(shape.size());
    const bool halve = random.chance(0.5);
    const std::int64_t now = extents[d];
    extents[d] = halve ? (now + 1) / 2 : std::min(now * 2, shape[d]);
    if (extents[d] == now)
        return std::nullopt;
    return accepted(schedule::setTile(s, graph, block.id, schedule::TileSpec{extents}));
}

std::optional<Schedule> bufferingMove(const Schedule& s, Random& random) {
    const Block& block = s.blocks[random.below(s.blocks.size())];
    return accepted(schedule::setBuffering(s, block.id, block.buffering == 1 ? 2 : 1));
}

} // namespace

std::vector<int> mpChoices(const target::Target& target) {
    std::vector<int> choices;
    for (int mp = 1; mp < target.maxMp(); mp *= 2)
        choices.push_back(mp);
    choices.push_back(target.maxMp());
    return choices;
}

std::optional<Schedule> mutate(const Schedule& schedule, const ir::Graph& graph,
                               const target::Target& target, const SearchSpace& space,
                               Random& random, schedule::AnalysisCache& analysis) {
    const std::vector<Move> moves = movesOf(space);
    if (moves.empty() || schedule.blocks.empty())
        return std::nullopt;
    switch (pick(moves, random)) {
    case Move::Merge:
        return mergeMove(schedule, graph, random);
    case Move::Split:
        return splitMove(schedule, graph, random);
    case Move::MoveOp:
        return moveOpMove(schedule, graph, random);
    case Move::Mp:
        return mpMove(schedule, target, random);
    case Move::Tile:
        return tileMove(schedule, graph, target, random, analysis);
    case Move::Buffering:
        return bufferingMove(schedule, random);
    }
    return std::nullopt;
}

std::optional<Schedule> crossover(const Schedule& a, const Schedule& b, const ir::Graph& graph,
                                  Random& random) {
    const std::size_t opCount = graph.ops.size();
    if (opCount < 2)
        return std::nullopt;
    const std::uint32_t cut = static_cast<std::uint32_t>(1 + random.below(opCount - 1));
    Schedule child = a;
    child.blocks.clear();
    std::vector<bool> covered(opCount, false);
    auto keep = [&](const Block& block) {
        for (ir::OpId op : block.ops)
            covered[op.index] = true;
        child.blocks.push_back(block);
    };
    // Ops are numbered in topological order and blocks keep theirs sorted.
    for (const Block& block : a.blocks)
        if (block.ops.back().index < cut)
            keep(block);
    for (const Block& block : b.blocks)
        if (block.ops.front().index >= cut)
            keep(block);
    for (const Block& block : a.blocks) {
        Block rest = block;
        std::erase_if(rest.ops, [&](ir::OpId op) { return covered[op.index]; });
        if (rest.ops.empty() || rest.ops.size() == block.ops.size()) {
            if (!rest.ops.empty())
                keep(block);
            continue;
        }
        rest.tile = {};
        keep(rest);
    }
    int id = 0;
    for (Block& block : child.blocks)
        block.id = id++;
    const std::vector<int> blockOf = schedule::blockIndexOfOps(child, graph);
    for (std::size_t i = 0; i < child.blocks.size(); ++i)
        if (schedule::findConvexityViolation(graph, child.blocks[i], blockOf, static_cast<int>(i)))
            return std::nullopt;
    if (schedule::orderBlocks(child, graph))
        return std::nullopt;
    return child;
}

} // namespace strata::search
