// Layouts with Graphviz dot: every node gets its box at the requested size, boxes do not
// overlap, edges run from box to box, clusters hold their nodes, the bounds hold everything,
// bad input and oversized graphs give diagnostics.

#include "layout/DotLayout.h"

#include "LayoutGraphs.h"
#include "layout/LayoutRequest.h"

#include <gtest/gtest.h>
#include <set>

namespace strata::layout {
namespace {

using test::distanceToOutline;

// Graphviz stores sizes in inches and positions in whole points: allow that much slack.
constexpr double kTolerance = 1.5;

std::string joined(const std::vector<Diagnostic>& diagnostics) {
    std::string out;
    for (const Diagnostic& d : diagnostics)
        out += d.toString() + "\n";
    return out;
}

struct Laid {
    LayoutRequest request;
    GraphLayout layout;
};

Laid layOut(const ir::Graph& graph, const LayoutInput& input = {},
            const TextMetrics& metrics = {}) {
    auto request = buildLayoutRequest(graph, input, metrics);
    EXPECT_TRUE(request.ok()) << joined(request.diagnostics());
    if (!request)
        return {};
    auto layout = layoutWithDot(*request);
    EXPECT_TRUE(layout.ok()) << joined(layout.diagnostics());
    if (!layout)
        return {*request, {}};
    return {*request, *layout};
}

void expectNoOverlaps(const GraphLayout& layout) {
    for (std::size_t i = 0; i < layout.nodes.size(); ++i)
        for (std::size_t j = i + 1; j < layout.nodes.size(); ++j)
            EXPECT_FALSE(layout.nodes[i].box.overlaps(layout.nodes[j].box))
                << "nodes " << i << " and " << j << " overlap";
}

void expectEdgesOnTheirBoxes(const GraphLayout& layout) {
    for (std::size_t i = 0; i < layout.edges.size(); ++i) {
        const EdgeRoute& edge = layout.edges[i];
        ASSERT_GE(edge.points.size(), 4u);
        EXPECT_EQ((edge.points.size() - 1) % 3, 0u);
        EXPECT_LE(distanceToOutline(layout.nodes[edge.from].box, edge.points.front()), kTolerance)
            << "edge " << i << " does not start on its tail";
        EXPECT_LE(distanceToOutline(layout.nodes[edge.to].box, edge.points.back()), kTolerance)
            << "edge " << i << " does not end on its head";
    }
}

void expectWithinBounds(const GraphLayout& layout) {
    for (const NodeBox& node : layout.nodes)
        EXPECT_TRUE(layout.bounds.contains(node.box, kTolerance));
    for (const ClusterBox& cluster : layout.clusters)
        EXPECT_TRUE(layout.bounds.contains(cluster.box, kTolerance));
}

TEST(DotLayoutTest, EveryOpOfASampleGetsABoxOfTheRequestedSize) {
    const auto graph = test::loadSample("resnet_tiny.onnx");
    if (!graph)
        GTEST_SKIP() << "samples/resnet_tiny.onnx missing";
    const Laid laid = layOut(*graph);
    ASSERT_EQ(laid.layout.nodes.size(), laid.request.nodes.size());
    EXPECT_EQ(laid.layout.nodes.size(),
              graph->ops.size() + graph->inputs.size() + graph->outputs.size());
    std::set<std::uint32_t> ops;
    for (std::size_t i = 0; i < laid.layout.nodes.size(); ++i) {
        const NodeBox& node = laid.layout.nodes[i];
        EXPECT_EQ(node.ref, laid.request.nodes[i].ref);
        EXPECT_NEAR(node.box.width, laid.request.nodes[i].width, kTolerance);
        EXPECT_NEAR(node.box.height, laid.request.nodes[i].height, kTolerance);
        if (node.ref.kind == NodeKind::Op)
            ops.insert(node.ref.id);
    }
    EXPECT_EQ(ops.size(), graph->ops.size());
    expectNoOverlaps(laid.layout);
    expectEdgesOnTheirBoxes(laid.layout);
    expectWithinBounds(laid.layout);
}

TEST(DotLayoutTest, FlowsTopToBottom) {
    const auto graph = test::makeChain(6);
    const Laid laid = layOut(*graph);
    for (const EdgeRoute& edge : laid.layout.edges)
        EXPECT_LT(laid.layout.nodes[edge.from].box.bottom(), laid.layout.nodes[edge.to].box.y)
            << "y must point down: a consumer sits below its producer";
}

TEST(DotLayoutTest, EdgesCarryTheirValuesAndConstantsAreNotDrawn) {
    const auto graph = test::makeDiamond();
    const Laid laid = layOut(*graph);
    // input->stem, stem->left (once, although Mul reads it twice), stem->right, left->add,
    // right->add, add->output.
    ASSERT_EQ(laid.layout.edges.size(), 6u);
    std::set<std::string> carried;
    for (const EdgeRoute& edge : laid.layout.edges)
        carried.insert(graph->value(edge.value).name);
    EXPECT_EQ(carried,
              (std::set<std::string>{"input", "stem_out", "left_out", "right_out", "output"}));
    expectEdgesOnTheirBoxes(laid.layout);
}

TEST(DotLayoutTest, ClustersContainTheirNodesAndKeepRoomForTheBadge) {
    const auto graph = test::loadSample("transformer_block.onnx");
    if (!graph)
        GTEST_SKIP() << "samples/transformer_block.onnx missing";
    LayoutInput input;
    input.blockOfOp = chunkPartition(*graph, 4);
    const Laid laid = layOut(*graph, input);
    ASSERT_FALSE(laid.layout.clusters.empty());
    EXPECT_EQ(laid.layout.clusters.size(), (graph->ops.size() + 3) / 4);
    std::map<int, Rect> clusterBox;
    for (const ClusterBox& cluster : laid.layout.clusters) {
        clusterBox[cluster.block] = cluster.box;
        EXPECT_TRUE(cluster.box.contains(cluster.label, kTolerance));
        EXPECT_GE(cluster.label.width, TextMetrics{}.clusterLabelWidth - kTolerance);
        EXPECT_GE(cluster.label.height, TextMetrics{}.clusterLabelHeight - kTolerance);
    }
    for (const NodeBox& node : laid.layout.nodes) {
        if (node.ref.kind != NodeKind::Op) {
            EXPECT_EQ(node.cluster, -1);
            continue;
        }
        ASSERT_EQ(node.cluster, input.blockOfOp[node.ref.id]);
        EXPECT_TRUE(clusterBox[node.cluster].contains(node.box, kTolerance));
        // The badge's room is free of nodes.
        for (const ClusterBox& cluster : laid.layout.clusters)
            EXPECT_FALSE(cluster.label.overlaps(node.box));
    }
    expectNoOverlaps(laid.layout);
    expectEdgesOnTheirBoxes(laid.layout);
    expectWithinBounds(laid.layout);
}

TEST(DotLayoutTest, ACollapsedBlockIsOneNode) {
    const auto graph = test::makeChain(10);
    LayoutInput input;
    input.blockOfOp = {0, 0, 0, 1, 1, 1, 2, 2, 2, 2};
    input.collapsedBlocks = {1};
    const Laid laid = layOut(*graph, input);
    // input, 3 ops of block 0, block 1, 4 ops of block 2, output.
    ASSERT_EQ(laid.layout.nodes.size(), 10u);
    EXPECT_EQ(laid.layout.nodes[4].ref, NodeRef::block(1));
    EXPECT_EQ(laid.layout.clusters.size(), 2u);
    expectNoOverlaps(laid.layout);
    expectEdgesOnTheirBoxes(laid.layout);
}

TEST(DotLayoutTest, IsDeterministic) {
    const auto graph = test::loadSample("transformer_block.onnx");
    if (!graph)
        GTEST_SKIP() << "samples/transformer_block.onnx missing";
    const Laid a = layOut(*graph);
    const Laid b = layOut(*graph);
    ASSERT_EQ(a.layout.nodes.size(), b.layout.nodes.size());
    for (std::size_t i = 0; i < a.layout.nodes.size(); ++i)
        EXPECT_EQ(a.layout.nodes[i].box, b.layout.nodes[i].box);
    ASSERT_EQ(a.layout.edges.size(), b.layout.edges.size());
    for (std::size_t i = 0; i < a.layout.edges.size(); ++i)
        EXPECT_EQ(a.layout.edges[i].points, b.layout.edges[i].points);
}

TEST(DotLayoutTest, SizesComeFromTheCallersTextMetrics) {
    const auto graph = test::makeDiamond();
    TextMetrics wide;
    wide.measure = [](std::string_view text, TextRole role) {
        return static_cast<double>(text.size()) * (role == TextRole::Title ? 20.0 : 10.0);
    };
    wide.maxWidth = 1000;
    const Laid laid = layOut(*graph, {}, wide);
    const auto conv = laid.layout.findNode(NodeRef::op(ir::OpId(0)));
    ASSERT_TRUE(conv);
    // "Conv" (4 x 20) and "stem" are short; "1x8x32x32" is the widest: 9 x 10 + 2 x 10 padding.
    EXPECT_NEAR(laid.layout.nodes[*conv].box.width, 110, kTolerance);
    EXPECT_NEAR(laid.layout.nodes[*conv].box.height, 3 * wide.lineHeight + 2 * wide.paddingY,
                kTolerance);

    TextMetrics narrow = wide;
    narrow.maxWidth = 100;
    narrow.minWidth = 100;
    const Laid clamped = layOut(*graph, {}, narrow);
    for (const NodeBox& node : clamped.layout.nodes)
        EXPECT_NEAR(node.box.width, 100, kTolerance);
}

TEST(DotLayoutTest, AnEmptyGraphGivesAnEmptyLayout) {
    const auto graph = test::makeEmpty();
    const Laid laid = layOut(*graph);
    EXPECT_TRUE(laid.request.nodes.empty());
    EXPECT_TRUE(laid.layout.nodes.empty());
    EXPECT_TRUE(laid.layout.edges.empty());
    EXPECT_EQ(laid.layout.bounds.width, 0);
}

TEST(DotLayoutTest, TheSizeBoundGivesADiagnosticInsteadOfALayout) {
    const auto graph = test::makeChain(50);
    auto request = buildLayoutRequest(*graph, {}, {}, LayoutLimits{.maxNodes = 20});
    ASSERT_FALSE(request.ok());
    EXPECT_NE(joined(request.diagnostics()).find("52 nodes"), std::string::npos)
        << joined(request.diagnostics());
    EXPECT_NE(joined(request.diagnostics()).find("limited to 20"), std::string::npos);

    auto edges = buildLayoutRequest(*graph, {}, {}, LayoutLimits{.maxEdges = 10});
    ASSERT_FALSE(edges.ok());
    EXPECT_NE(joined(edges.diagnostics()).find("edges"), std::string::npos);
}

TEST(DotLayoutTest, AnInvalidRequestIsRefusedBeforeGraphviz) {
    LayoutRequest request;
    request.nodes.push_back({NodeRef::op(ir::OpId(0)), 100, 40, -1});
    request.nodes.push_back({NodeRef::op(ir::OpId(1)), -5, 40, 7});
    request.edges.push_back({0, 9, ir::ValueId(0), 1});
    auto layout = layoutWithDot(request);
    ASSERT_FALSE(layout.ok());
    const std::string text = joined(layout.diagnostics());
    EXPECT_NE(text.find("size must be finite and positive"), std::string::npos) << text;
    EXPECT_NE(text.find("cluster 7"), std::string::npos) << text;
    EXPECT_NE(text.find("edge end is not a node"), std::string::npos) << text;
}

TEST(DotLayoutTest, AnOverviewOfABigGraphLaysOutQuickly) {
    const auto graph = test::makeChain(5000);
    const LayoutInput overview = overviewInput(*graph, {}, LayoutLimits{}.maxNodes, 50);
    EXPECT_TRUE(overview.blocksAreChunks);
    EXPECT_LE(layoutNodeCount(*graph, overview), 52u);
    const Laid laid = layOut(*graph, overview);
    EXPECT_EQ(laid.layout.nodes.size(), layoutNodeCount(*graph, overview));
    EXPECT_TRUE(laid.layout.clusters.empty());
    expectNoOverlaps(laid.layout);
    expectEdgesOnTheirBoxes(laid.layout);
}

} // namespace
} // namespace strata::layout
