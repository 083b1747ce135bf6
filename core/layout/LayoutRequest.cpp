#include "layout/LayoutRequest.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>

namespace strata::layout {

namespace {

constexpr std::uint32_t kNoNode = UINT32_MAX;

// Which node stands for each op and each graph input, built before the edges.
struct NodeIndex {
    std::vector<std::uint32_t> ofOp;                     // by op index
    std::map<std::uint32_t, std::uint32_t> ofInputValue; // graph input value -> node
};

bool isBlockNode(const LayoutRequest& request, std::uint32_t node) {
    return request.nodes[node].ref.kind == NodeKind::Block;
}

} // namespace

Expected<LayoutRequest> buildLayoutRequest(const ir::Graph& graph, const LayoutInput& input,
                                           const TextMetrics& metrics, const LayoutLimits& limits) {
    if (auto problems = validateInput(graph, input); !problems.empty())
        return problems;
    const std::size_t nodeCount = layoutNodeCount(graph, input);
    if (nodeCount > limits.maxNodes)
        return error("the graph has " + std::to_string(nodeCount) +
                     " nodes to lay out; a full layout is limited to " +
                     std::to_string(limits.maxNodes) + " (collapse blocks to see it)");

    LayoutRequest request;
    request.nodes.reserve(nodeCount);
    NodeIndex index;
    index.ofOp.assign(graph.ops.size(), kNoNode);

    auto addNode = [&](NodeRef ref, int cluster) {
        const Size size = nodeSize(nodeLabel(graph, input, ref), metrics);
        request.nodes.push_back({ref, size.width, size.height, cluster});
        return static_cast<std::uint32_t>(request.nodes.size() - 1);
    };

    for (ir::ValueId value : graph.inputs) {
        if (!value.valid() || value.index >= graph.values.size() ||
            index.ofInputValue.count(value.index))
            continue;
        index.ofInputValue[value.index] = addNode({NodeKind::Input, value.index}, -1);
    }
    std::map<int, std::uint32_t> blockNode;
    std::set<int> expandedBlocks;
    for (std::size_t i = 0; i < graph.ops.size(); ++i) {
        const int block = input.blockOfOp.empty() ? -1 : input.blockOfOp[i];
        if (block >= 0 && input.isCollapsed(block)) {
            auto [it, inserted] = blockNode.try_emplace(block, kNoNode);
            if (inserted)
                it->second = addNode(NodeRef::block(block), -1);
            index.ofOp[i] = it->second;
            continue;
        }
        if (block >= 0)
            expandedBlocks.insert(block);
        index.ofOp[i] = addNode(NodeRef::op(ir::OpId(static_cast<std::uint32_t>(i))), block);
    }
    std::vector<std::uint32_t> outputNodes;
    for (ir::ValueId value : graph.outputs) {
        if (!value.valid() || value.index >= graph.values.size())
            continue;
        outputNodes.push_back(addNode({NodeKind::Output, value.index}, -1));
    }

    // The node a value comes from: its producer's, or its graph input's; none for constants.
    auto sourceOf = [&](ir::ValueId value) -> std::uint32_t {
        if (!value.valid() || value.index >= graph.values.size())
            return kNoNode;
        const ir::Value& v = graph.value(value);
        if (v.producer.valid() && v.producer.index < index.ofOp.size())
            return index.ofOp[v.producer.index];
        const auto it = index.ofInputValue.find(value.index);
        return it == index.ofInputValue.end() ? kNoNode : it->second;
    };

    std::set<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>> seenEdges;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> mergedEdges;
    auto addEdge = [&](std::uint32_t from, std::uint32_t to, ir::ValueId value) {
        if (from == kNoNode || to == kNoNode || from == to)
            return;
        if (!seenEdges.insert({from, to, value.index}).second)
            return; // the same tensor into the same node twice (x * x)
        if (isBlockNode(request, from) || isBlockNode(request, to)) {
            const auto [it, inserted] = mergedEdges.try_emplace({from, to}, request.edges.size());
            if (!inserted) {
                ++request.edges[it->second].valueCount;
                return;
            }
        }
        request.edges.push_back({from, to, value, 1});
    };

    for (std::size_t i = 0; i < graph.ops.size(); ++i)
        for (ir::ValueId value : graph.ops[i].inputs)
            addEdge(sourceOf(value), index.ofOp[i], value);
    std::size_t outputIndex = 0;
    for (ir::ValueId value : graph.outputs) {
        if (!value.valid() || value.index >= graph.values.size())
            continue;
        addEdge(sourceOf(value), outputNodes[outputIndex++], value);
    }
    if (request.edges.size() > limits.maxEdges)
        return error("the graph has " + std::to_string(request.edges.size()) +
                     " edges to lay out; a full layout is limited to " +
                     std::to_string(limits.maxEdges) + " (collapse blocks to see it)");

    for (int block : expandedBlocks)
        request.clusters.push_back({block, metrics.clusterLabelWidth, metrics.clusterLabelHeight});
    return request;
}

std::vector<Diagnostic> validateRequest(const LayoutRequest& request) {
    std::vector<Diagnostic> out;
    auto positive = [](double v) { return std::isfinite(v) && v > 0 && v < 1e6; };
    auto nonNegative = [](double v) { return std::isfinite(v) && v >= 0 && v < 1e6; };
    if (!nonNegative(request.nodeSep) || !nonNegative(request.rankSep))
        out.push_back(error("node and rank separations must be finite and not negative"));
    std::set<int> clusters;
    for (std::size_t i = 0; i < request.clusters.size(); ++i) {
        const auto& cluster = request.clusters[i];
        const Location where{.field = "clusters[" + std::to_string(i) + "]"};
        if (cluster.block < 0 || !clusters.insert(cluster.block).second)
            out.push_back(
                error("cluster block " + std::to_string(cluster.block) + " is negative or repeated",
                      where));
        if (!nonNegative(cluster.labelWidth) || !nonNegative(cluster.labelHeight))
            out.push_back(error("cluster label size must be finite and not negative", where));
    }
    std::set<NodeRef> refs;
    for (std::size_t i = 0; i < request.nodes.size(); ++i) {
        const auto& node = request.nodes[i];
        const Location where{.field = "nodes[" + std::to_string(i) + "]"};
        if (!positive(node.width) || !positive(node.height))
            out.push_back(error("node size must be finite and positive", where));
        if (node.cluster != -1 && !clusters.count(node.cluster))
            out.push_back(error("node names cluster " + std::to_string(node.cluster) +
                                    ", which is not in the request",
                                where));
        if (!refs.insert(node.ref).second)
            out.push_back(error("node " + std::string(nodeKindName(node.ref.kind)) + " " +
                                    std::to_string(node.ref.id) + " is repeated",
                                where));
    }
    for (std::size_t i = 0; i < request.edges.size(); ++i) {
        const auto& edge = request.edges[i];
        if (edge.from >= request.nodes.size() || edge.to >= request.nodes.size())
            out.push_back(error("edge end is not a node",
                                Location{.field = "edges[" + std::to_string(i) + "]"}));
    }
    return out;
}

} // namespace strata::layout
