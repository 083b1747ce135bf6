// What is laid out: partitions checked against the graph, node counts, chunked overviews of
// big graphs, and the labels nodes are sized for.

#include "layout/LayoutInput.h"

#include "LayoutGraphs.h"
#include "layout/LayoutRequest.h"
#include "layout/NodeLabel.h"

#include <gtest/gtest.h>

namespace strata::layout {
namespace {

std::string joined(const std::vector<Diagnostic>& diagnostics) {
    std::string out;
    for (const Diagnostic& d : diagnostics)
        out += d.toString() + "\n";
    return out;
}

TEST(LayoutInputTest, APartitionOfTheWrongSizeIsRefused) {
    const auto graph = test::makeChain(4);
    LayoutInput input;
    input.blockOfOp = {0, 0, 1};
    const auto problems = validateInput(*graph, input);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].message.find("3 entries but the graph has 4 ops"), std::string::npos);
    EXPECT_FALSE(buildLayoutRequest(*graph, input, {}).ok());
}

TEST(LayoutInputTest, NegativeBlocksAndEmptyCollapsedBlocksAreRefused) {
    const auto graph = test::makeChain(4);
    LayoutInput negative;
    negative.blockOfOp = {0, -3, 1, 1};
    auto problems = validateInput(*graph, negative);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].where.node, "op1");

    LayoutInput missing;
    missing.blockOfOp = {0, 0, 1, 1};
    missing.collapsedBlocks = {1, 5};
    problems = validateInput(*graph, missing);
    ASSERT_EQ(problems.size(), 1u) << joined(problems);
    EXPECT_EQ(problems[0].where.block, "5");

    LayoutInput unsorted;
    unsorted.blockOfOp = {0, 0, 1, 1};
    unsorted.collapsedBlocks = {1, 0};
    EXPECT_EQ(validateInput(*graph, unsorted).size(), 1u);

    LayoutInput huge; // a block index far beyond the op count allocates nothing
    huge.blockOfOp = {0, 0, 1, 2'000'000'000};
    huge.collapsedBlocks = {2'000'000'000};
    EXPECT_TRUE(validateInput(*graph, huge).empty());
}

TEST(LayoutInputTest, NodeCountCountsCollapsedBlocksOnce) {
    const auto graph = test::makeChain(10);
    LayoutInput input;
    EXPECT_EQ(layoutNodeCount(*graph, input), 12u);
    input.blockOfOp = {0, 0, 0, 1, 1, 1, 2, 2, 2, -1};
    input.collapsedBlocks = {0, 2};
    // input, block 0, three ops of block 1, block 2, op 9, output.
    EXPECT_EQ(layoutNodeCount(*graph, input), 8u);
}

TEST(LayoutInputTest, ChunksAreRunsOfConsecutiveOps) {
    const auto graph = test::makeChain(7);
    EXPECT_EQ(chunkPartition(*graph, 3), (std::vector<int>{0, 0, 0, 1, 1, 1, 2}));
    EXPECT_EQ(chunkPartition(*graph, 0), (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
}

TEST(LayoutInputTest, AnOverviewCollapsesBlocksOrFallsBackToChunks) {
    const auto graph = test::makeChain(12);
    LayoutInput blocks;
    blocks.blockOfOp = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2};
    const LayoutInput collapsed = overviewInput(*graph, blocks, 100);
    EXPECT_FALSE(collapsed.blocksAreChunks);
    EXPECT_EQ(collapsed.blockOfOp, blocks.blockOfOp);
    EXPECT_EQ(collapsed.collapsedBlocks, (std::vector<int>{0, 1, 2}));

    // One op per block collapses to nothing smaller: chunks instead.
    LayoutInput singles;
    for (int i = 0; i < 12; ++i)
        singles.blockOfOp.push_back(i);
    const LayoutInput chunks = overviewInput(*graph, singles, 8, 4);
    EXPECT_TRUE(chunks.blocksAreChunks);
    EXPECT_EQ(chunks.collapsedBlocks, (std::vector<int>{0, 1, 2, 3}));
    EXPECT_LE(layoutNodeCount(*graph, chunks), 8u);
}

TEST(LayoutInputTest, LabelsSayTypeNameAndShape) {
    const auto graph = test::makeDiamond();
    const NodeLabel conv = nodeLabel(*graph, {}, NodeRef::op(ir::OpId(0)));
    EXPECT_EQ(conv.title, "Conv");
    EXPECT_EQ(conv.name, "stem");
    EXPECT_EQ(conv.detail, "1x8x32x32");
    EXPECT_EQ(conv.lineCount(), 3);

    const NodeLabel input = nodeLabel(*graph, {}, {NodeKind::Input, graph->inputs[0].index});
    EXPECT_EQ(input.title, "Input");
    EXPECT_EQ(input.name, "input");
    EXPECT_EQ(input.detail, "1x3x32x32 float32");

    LayoutInput blocks;
    blocks.blockOfOp = {0, 1, 1, 1};
    const NodeLabel block = nodeLabel(*graph, blocks, NodeRef::block(1));
    EXPECT_EQ(block.title, "Block 1");
    EXPECT_EQ(block.name, "3 ops");
    EXPECT_EQ(block.detail, "Add \u00b7 Mul \u00b7 Relu");

    blocks.blocksAreChunks = true;
    EXPECT_EQ(nodeLabel(*graph, blocks, NodeRef::block(1)).title, "Ops 1\u20133");
}

TEST(LayoutInputTest, FixedWidthsCountCharactersNotBytes) {
    TextMetrics metrics;
    metrics.charWidth = 10;
    EXPECT_EQ(metrics.textWidth("Ops 1\u20133", TextRole::Body), 70);
}

} // namespace
} // namespace strata::layout
