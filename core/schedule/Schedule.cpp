#include "schedule/Schedule.h"

#include <algorithm>

namespace strata::schedule {

std::string tileToString(const TileSpec& tile) {
    if (tile.isAuto()) return "auto";
    return ir::shapeToString(*tile.extents);
}

std::string blockName(int id) { return "B" + std::to_string(id); }

const Block* Schedule::findBlock(int id) const {
    auto it = std::find_if(blocks.begin(), blocks.end(), [id](const Block& b) { return b.id == id; });
    return it == blocks.end() ? nullptr : &*it;
}

Block* Schedule::findBlock(int id) {
    return const_cast<Block*>(static_cast<const Schedule&>(*this).findBlock(id));
}

int Schedule::nextBlockId() const {
    int next = 0;
    for (const Block& b : blocks) next = std::max(next, b.id + 1);
    return next;
}

std::vector<int> blockIndexOfOps(const Schedule& schedule, const ir::Graph& graph) {
    std::vector<int> of(graph.ops.size(), -1);
    for (std::size_t b = 0; b < schedule.blocks.size(); ++b)
        for (ir::OpId op : schedule.blocks[b].ops)
            if (op.index < of.size()) of[op.index] = static_cast<int>(b);
    return of;
}

} // namespace strata::schedule
