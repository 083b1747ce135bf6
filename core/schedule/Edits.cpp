#include "schedule/Edits.h"

#include "schedule/BlockOrder.h"
#include "tiling/BlockTiling.h"

#include <algorithm>

namespace strata::schedule {
namespace {

Diagnostic refuse(std::string message, int blockId = -1, std::string node = {}) {
    Location where;
    if (blockId >= 0) where.block = blockName(blockId);
    where.node = std::move(node);
    return error(std::move(message), std::move(where));
}

Diagnostic unknownBlock(int blockId) { return refuse("there is no block " + blockName(blockId)); }

// Re-orders the edited schedule; refuses it when some block is no longer convex, naming it.
EditResult reorder(Schedule edited, const ir::Graph& graph, std::vector<int> changedIds) {
    for (int id : changedIds) {
        const Block* b = edited.findBlock(id);
        if (!b) continue;
        std::vector<int> blockOf = blockIndexOfOps(edited, graph);
        int index = static_cast<int>(b - edited.blocks.data());
        if (auto v = findConvexityViolation(graph, *b, blockOf, index))
            return refuse("block would not be convex: the result of '" + graph.op(v->leavesAt).name +
                              "' would leave it through '" + graph.op(v->outside).name +
                              "' and come back at '" + graph.op(v->reentersAt).name + "'",
                          id, graph.op(v->reentersAt).name);
    }
    if (auto cycle = orderBlocks(edited, graph))
        return refuse("the blocks would depend on each other in a cycle (through '" + graph.op(*cycle).name + "')");
    return edited;
}

} // namespace

EditResult mergeBlocks(const Schedule& schedule, const ir::Graph& graph, int blockA, int blockB) {
    if (blockA == blockB) return refuse("cannot merge a block with itself", blockA);
    Schedule edited = schedule;
    Block* a = edited.findBlock(blockA);
    Block* b = edited.findBlock(blockB);
    if (!a) return unknownBlock(blockA);
    if (!b) return unknownBlock(blockB);
    if (b < a) std::swap(a, b); // keep the earlier block's place and id
    a->ops.insert(a->ops.end(), b->ops.begin(), b->ops.end());
    std::sort(a->ops.begin(), a->ops.end());
    a->mp = std::max(a->mp, b->mp);
    a->buffering = std::max(a->buffering, b->buffering);
    a->tile = {};
    int keptId = a->id;
    edited.blocks.erase(edited.blocks.begin() + (b - edited.blocks.data()));
    return reorder(std::move(edited), graph, {keptId});
}

EditResult splitBlock(const Schedule& schedule, const ir::Graph& graph, int blockId, ir::OpId at) {
    Schedule edited = schedule;
    Block* block = edited.findBlock(blockId);
    if (!block) return unknownBlock(blockId);
    auto it = std::find(block->ops.begin(), block->ops.end(), at);
    std::string name = at.index < graph.ops.size() ? graph.op(at).name : "#" + std::to_string(at.index);
    if (it == block->ops.end()) return refuse("op '" + name + "' is not in this block", blockId, name);
    if (it == block->ops.begin())
        return refuse("op '" + name + "' is the block's first op; split at a later op", blockId, name);
    Block tail = *block;
    tail.id = edited.nextBlockId();
    tail.ops.assign(it, block->ops.end());
    tail.tile = {};
    block->ops.erase(it, block->ops.end());
    block->tile = {};
    auto where = edited.blocks.begin() + (block - edited.blocks.data()) + 1;
    int tailId = tail.id;
    edited.blocks.insert(where, std::move(tail));
    return reorder(std::move(edited), graph, {blockId, tailId});
}

EditResult moveOp(const Schedule& schedule, const ir::Graph& graph, ir::OpId op, int toBlock) {
    if (op.index >= graph.ops.size()) return refuse("op #" + std::to_string(op.index) + " is not in the model");
    const std::string& name = graph.op(op).name;
    Schedule edited = schedule;
    std::vector<int> blockOf = blockIndexOfOps(edited, graph);
    if (blockOf[op.index] < 0) return refuse("op '" + name + "' is in no block", -1, name);
    Block* from = &edited.blocks[static_cast<std::size_t>(blockOf[op.index])];
    Block* to = edited.findBlock(toBlock);
    if (!to) return unknownBlock(toBlock);
    if (from == to) return refuse("op '" + name + "' is already in " + blockName(toBlock), toBlock, name);

    const int toIndex = static_cast<int>(to - edited.blocks.data());
    bool neighbour = false;
    for (ir::ValueId in : graph.op(op).inputs)
        if (in.valid() && graph.value(in).producer.valid())
            neighbour = neighbour || blockOf[graph.value(in).producer.index] == toIndex;
    for (ir::ValueId out : graph.op(op).outputs)
        if (out.valid())
            for (ir::OpId c : graph.value(out).consumers) neighbour = neighbour || blockOf[c.index] == toIndex;
    if (!neighbour)
        return refuse("op '" + name + "' does not touch " + blockName(toBlock) +
                          ": an op moves only into a block that makes one of its inputs or reads its result",
                      toBlock, name);

    to->ops.insert(std::upper_bound(to->ops.begin(), to->ops.end(), op), op);
    to->tile = {};
    from->ops.erase(std::find(from->ops.begin(), from->ops.end(), op));
    from->tile = {};
    std::vector<int> changed = {toBlock};
    if (from->ops.empty()) edited.blocks.erase(edited.blocks.begin() + (from - edited.blocks.data()));
    else changed.push_back(from->id);
    return reorder(std::move(edited), graph, changed);
}

EditResult setMp(const Schedule& schedule, int blockId, int mp) {
    if (mp < 1) return refuse("mp must be at least 1, not " + std::to_string(mp), blockId);
    Schedule edited = schedule;
    Block* block = edited.findBlock(blockId);
    if (!block) return unknownBlock(blockId);
    block->mp = mp;
    return edited;
}

EditResult setTile(const Schedule& schedule, const ir::Graph& graph, int blockId, TileSpec tile) {
    Schedule edited = schedule;
    Block* block = edited.findBlock(blockId);
    if (!block) return unknownBlock(blockId);
    if (tile.extents) {
        tiling::BlockTiler tiler(graph, block->ops);
        const ir::Shape& shape = tiler.anchorShape();
        const std::string anchor = graph.value(tiler.anchor()).name;
        if (tile.extents->size() != shape.size())
            return refuse("tile " + tileToString(tile) + " has " + std::to_string(tile.extents->size()) +
                              " dimensions; the block's output '" + anchor + "' is " + ir::shapeToString(shape),
                          blockId);
        for (std::size_t d = 0; d < shape.size(); ++d)
            if ((*tile.extents)[d] < 1 || (*tile.extents)[d] > shape[d])
                return refuse("tile " + tileToString(tile) + " does not fit the block's output '" + anchor +
                                  "' (" + ir::shapeToString(shape) + ") in dimension " + std::to_string(d),
                              blockId);
    }
    block->tile = std::move(tile);
    return edited;
}

EditResult setBuffering(const Schedule& schedule, int blockId, int buffering) {
    if (buffering != 1 && buffering != 2)
        return refuse("buffering must be 1 or 2, not " + std::to_string(buffering), blockId);
    Schedule edited = schedule;
    Block* block = edited.findBlock(blockId);
    if (!block) return unknownBlock(blockId);
    block->buffering = buffering;
    return edited;
}

} // namespace strata::schedule
