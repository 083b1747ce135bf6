#include "layout/LayoutInput.h"

#include <algorithm>
#include <string>

namespace strata::layout {

namespace {

std::vector<int> usedBlocks(const std::vector<int>& blockOfOp) {
    std::vector<int> blocks;
    for (int block : blockOfOp)
        if (block >= 0)
            blocks.push_back(block);
    std::sort(blocks.begin(), blocks.end());
    blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
    return blocks;
}

} // namespace

bool LayoutInput::isCollapsed(int block) const {
    return std::binary_search(collapsedBlocks.begin(), collapsedBlocks.end(), block);
}

std::vector<Diagnostic> validateInput(const ir::Graph& graph, const LayoutInput& input) {
    std::vector<Diagnostic> out;
    if (!input.blockOfOp.empty() && input.blockOfOp.size() != graph.ops.size()) {
        out.push_back(error("the partition has " + std::to_string(input.blockOfOp.size()) +
                            " entries but the graph has " + std::to_string(graph.ops.size()) +
                            " ops"));
        return out;
    }
    for (std::size_t i = 0; i < input.blockOfOp.size(); ++i) {
        const int block = input.blockOfOp[i];
        if (block < -1) {
            out.push_back(error("block index " + std::to_string(block) + " is negative",
                                Location{.node = graph.ops[i].name}));
            return out;
        }
    }
    if (!std::is_sorted(input.collapsedBlocks.begin(), input.collapsedBlocks.end()) ||
        std::adjacent_find(input.collapsedBlocks.begin(), input.collapsedBlocks.end()) !=
            input.collapsedBlocks.end()) {
        out.push_back(error("collapsed blocks must be ascending and distinct"));
        return out;
    }
    const std::vector<int> used = usedBlocks(input.blockOfOp);
    for (int block : input.collapsedBlocks) {
        if (!std::binary_search(used.begin(), used.end(), block))
            out.push_back(error("collapsed block " + std::to_string(block) + " holds no op",
                                Location{.block = std::to_string(block)}));
    }
    return out;
}

std::size_t layoutNodeCount(const ir::Graph& graph, const LayoutInput& input) {
    std::size_t count = graph.inputs.size() + graph.outputs.size();
    std::vector<int> seen; // collapsed blocks already counted (few; sorted insert)
    for (std::size_t i = 0; i < graph.ops.size(); ++i) {
        const int block = input.blockOfOp.empty() ? -1 : input.blockOfOp[i];
        if (block < 0 || !input.isCollapsed(block)) {
            ++count;
            continue;
        }
        const auto it = std::lower_bound(seen.begin(), seen.end(), block);
        if (it == seen.end() || *it != block) {
            seen.insert(it, block);
            ++count;
        }
    }
    return count;
}

std::vector<int> chunkPartition(const ir::Graph& graph, std::size_t chunkSize) {
    chunkSize = std::max<std::size_t>(chunkSize, 1);
    std::vector<int> blocks(graph.ops.size());
    for (std::size_t i = 0; i < blocks.size(); ++i)
        blocks[i] = static_cast<int>(i / chunkSize);
    return blocks;
}

LayoutInput overviewInput(const ir::Graph& graph, const LayoutInput& base, std::size_t maxNodes,
                          std::size_t targetNodes) {
    if (!base.blockOfOp.empty() && !base.blocksAreChunks) {
        LayoutInput collapsed;
        collapsed.blockOfOp = base.blockOfOp;
        collapsed.collapsedBlocks = usedBlocks(base.blockOfOp);
        if (layoutNodeCount(graph, collapsed) <= maxNodes)
            return collapsed;
    }
    const std::size_t ops = graph.ops.size();
    const std::size_t target = std::max<std::size_t>(targetNodes, 1);
    LayoutInput chunks;
    chunks.blockOfOp = chunkPartition(graph, (ops + target - 1) / target);
    chunks.collapsedBlocks = usedBlocks(chunks.blockOfOp);
    chunks.blocksAreChunks = true;
    return chunks;
}

} // namespace strata::layout
