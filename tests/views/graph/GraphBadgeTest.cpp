// A block's badge stays readable: no edge line runs through its text. The layout keeps the
// badge's row free of nodes but not of the edges entering the block, so each badge slides along
// its row off the edges, still on its block's top edge; where no spot is free (narrow blocks
// side by side, long badges), the badge says the block's name only, and an edge still crossing
// it stops short of it. On the committed samples,
// scheduled op by op and fused, with the long badges the app shows.

#include "../ShownGraphView.h"
#include "../TestGraphs.h"
#include "model/OnnxImporter.h"
#include "schedule/Strategies.h"
#include "target/TargetLoader.h"
#include "views/graph/BadgePlacement.h"
#include "views/graph/GraphItems.h"
#include "views/graph/GraphScene.h"
#include "views/graph/GraphView.h"

#include <QLineF>
#include <QTest>
#include <gtest/gtest.h>
#include <string>

namespace strata::views::graph {
namespace {

class GraphBadgeTest : public test::ShownGraphView {
  protected:
    // The sample scheduled for mncore2 with `strategy`, laid out with a long badge per block.
    void show(const char* sample, schedule::Strategy strategy) {
        auto imported = model::importOnnxFile(std::string(STRATA_SAMPLES_DIR "/") + sample);
        ASSERT_TRUE(imported.ok()) << "cannot open the committed sample " << sample;
        m_graph = imported->graph;
        auto target = target::resolveTarget("mncore2");
        ASSERT_TRUE(target.ok());
        const schedule::Schedule s = schedule::makeSchedule(*m_graph, *target, strategy);
        layout::LayoutInput input;
        input.blockOfOp.assign(m_graph->ops.size(), -1);
        std::vector<BlockBadge> badges;
        for (const schedule::Block& block : s.blocks) {
            for (ir::OpId op : block.ops)
                input.blockOfOp[op.index] = block.id;
            badges.push_back({.block = block.id,
                              .mp = 16,
                              .predictedSeconds = 12.345e-3,
                              .dramBytes = std::uint64_t{987654321}});
        }
        auto laid = test::layOut(*m_graph, input, m_view.textMetrics());
        ASSERT_NE(laid, nullptr);
        m_view.showGraphLayout(m_graph, laid, input);
        m_view.setBadges(badges);
    }

    GraphScene& scene() { return *m_view.scene(); }

    // The edges whose line (the pen's width; less the edge's gaps when `drawn`) crosses `rect`:
    // the path walked in steps of half a unit.
    std::vector<std::size_t> edgesThrough(const QRectF& rect, bool drawn) {
        const QRectF reached =
            rect.adjusted(-kPenWidth / 2, -kPenWidth / 2, kPenWidth / 2, kPenWidth / 2);
        std::vector<std::size_t> crossing;
        for (std::size_t e = 0; e < scene().edgeCount(); ++e) {
            const EdgeItem& edge = *scene().edge(e);
            auto shown = [&](QPointF p) {
                if (!reached.contains(p))
                    return false;
                for (const QRectF& gap : drawn ? edge.gaps() : std::vector<QRectF>{})
                    if (gap.contains(p))
                        return false;
                return true;
            };
            bool crosses = false;
            for (const QPolygonF& line : edge.path().toSubpathPolygons())
                for (qsizetype i = 0; i + 1 < line.size() && !crosses; ++i) {
                    const int steps =
                        std::max(1, static_cast<int>(QLineF(line[i], line[i + 1]).length() * 2));
                    for (int k = 0; k <= steps && !crosses; ++k)
                        crosses = shown(line[i] + (line[i + 1] - line[i]) * (double(k) / steps));
                }
            if (crosses)
                crossing.push_back(e);
        }
        return crossing;
    }

    static constexpr double kPenWidth = 1.25; // EdgeItem's line

    std::shared_ptr<const ir::Graph> m_graph;
};

class GraphBadgeSamplesTest
    : public GraphBadgeTest,
      public ::testing::WithParamInterface<std::tuple<const char*, schedule::Strategy>> {};

TEST_P(GraphBadgeSamplesTest, NoEdgeLineCrossesABadgesText) {
    const auto [sample, strategy] = GetParam();
    show(sample, strategy);
    ASSERT_GT(scene().clusterCount(), 1u);
    for (std::size_t c = 0; c < scene().clusterCount(); ++c) {
        const ClusterItem& cluster = *scene().cluster(c);
        const QRectF text = badgeTextRect(cluster.badgeRect());
        for (std::size_t e : edgesThrough(text, true))
            ADD_FAILURE() << "edge " << e << " runs through the badge text of block "
                          << cluster.block();
        // Still the block's: on its top edge, overlapping its region.
        EXPECT_EQ(cluster.badgeRect().top(), cluster.badgeHome().top());
        EXPECT_TRUE(cluster.badgeRect().intersects(cluster.box())) << "block " << cluster.block();
        // And clear of the others: a badge too long for any free spot says the block's name only.
        for (std::size_t other = c + 1; other < scene().clusterCount(); ++other)
            EXPECT_FALSE(cluster.badgeRect().intersects(scene().cluster(other)->badgeRect()))
                << "the badges of blocks " << cluster.block() << " and "
                << scene().cluster(other)->block() << " overlap";
    }
}

// Op by op, every block is entered from above through its label row: where the layout put
// them, some badges are crossed, so the case above is exercised, not vacuous.
TEST_F(GraphBadgeTest, WhereTheLayoutPutsThemEdgesCrossBadges) {
    show("resnet_tiny.onnx", schedule::Strategy::PerOp);
    std::size_t crossedAtHome = 0;
    for (std::size_t c = 0; c < scene().clusterCount(); ++c)
        crossedAtHome +=
            !edgesThrough(badgeTextRect(scene().cluster(c)->badgeHome()), false).empty();
    EXPECT_GT(crossedAtHome, 0u);
}

// Gaps are the exception: on a fused schedule every badge finds a spot no edge crosses.
TEST_F(GraphBadgeTest, FusedBlocksLeaveNoEdgeAGap) {
    for (const char* sample :
         {"resnet_tiny.onnx", "mobilenet_tiny.onnx", "transformer_block.onnx"}) {
        show(sample, schedule::Strategy::FuseMax);
        for (std::size_t e = 0; e < scene().edgeCount(); ++e)
            EXPECT_TRUE(scene().edge(e)->gaps().empty()) << sample << " edge " << e;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Samples, GraphBadgeSamplesTest,
    ::testing::Combine(::testing::Values("resnet_tiny.onnx", "mobilenet_tiny.onnx",
                                         "transformer_block.onnx"),
                       ::testing::Values(schedule::Strategy::PerOp, schedule::Strategy::FuseMax)),
    [](const auto& info) {
        std::string name = std::get<0>(info.param);
        name = name.substr(0, name.find('.')) +
               (std::get<1>(info.param) == schedule::Strategy::PerOp ? "_PerOp" : "_FuseMax");
        return name;
    });

} // namespace
} // namespace strata::views::graph
