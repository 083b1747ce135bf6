// Editing feedback on the graph: a block that refuses an op dragged onto it is drawn as a
// distinct "no" and says why (tooltip, status) instead of looking like one that takes it; the
// boundary handles on edges between blocks never sit on a badge's text or on a node.

#include "../ShownGraphView.h"
#include "../TestGraphs.h"
#include "views/graph/GraphCanvas.h"
#include "views/graph/GraphItems.h"
#include "views/graph/GraphScene.h"
#include "views/graph/GraphView.h"

#include <QApplication>
#include <QImage>
#include <QMouseEvent>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>

namespace strata::views::graph {
namespace {

class GraphDropTest : public test::ShownGraphView {
  protected:
    void show(std::shared_ptr<const ir::Graph> graph, layout::LayoutInput input) {
        m_graph = std::move(graph);
        auto laid = test::layOut(*m_graph, input, m_view.textMetrics());
        ASSERT_NE(laid, nullptr);
        m_view.showGraphLayout(m_graph, laid, input);
    }

    GraphScene& scene() { return *m_view.scene(); }
    GraphCanvas& canvas() { return *m_view.canvas(); }

    // Presses on `op`'s node and moves (button held) to a point of `block`'s region off its
    // nodes; the caller releases.
    void dragOpOver(ir::OpId op, int block) {
        NodeItem* node = scene().nodeForOp(op);
        ClusterItem* target = scene().clusterForBlock(block);
        ASSERT_NE(node, nullptr);
        ASSERT_NE(target, nullptr);
        canvas().restoreView(0.3, node->sceneBox().united(target->box()).center());
        const QPoint from = canvas().mapFromScene(node->sceneBox().center());
        const QPointF drop = target->box().bottomLeft() + QPointF(6, -6);
        ASSERT_EQ(scene().blockAt(drop), block);
        m_to = canvas().mapFromScene(drop);
        ASSERT_TRUE(canvas().viewport()->rect().contains(from));
        ASSERT_TRUE(canvas().viewport()->rect().contains(m_to));
        QTest::mousePress(canvas().viewport(), Qt::LeftButton, Qt::NoModifier, from);
        for (int step = 1; step <= 8; ++step) {
            const QPoint at = from + (m_to - from) * step / 8;
            QMouseEvent move(QEvent::MouseMove, at, canvas().viewport()->mapToGlobal(at),
                             Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(canvas().viewport(), &move);
        }
        ASSERT_TRUE(canvas().isDraggingOp());
    }

    void release() {
        QTest::mouseRelease(canvas().viewport(), Qt::LeftButton, Qt::NoModifier, m_to);
    }

    QImage renderScene(const QRectF& rect) {
        QImage image(rect.size().toSize(), QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        QPainter painter(&image);
        scene().render(&painter, QRectF(QPointF(0, 0), rect.size()), rect);
        return image;
    }

    std::shared_ptr<const ir::Graph> m_graph;
    QPoint m_to;
};

TEST_F(GraphDropTest, ABlockThatRefusesTheOpShowsANoAndSaysWhy) {
    layout::LayoutInput input;
    input.blockOfOp = {0, 0, 0, 1, 1, 1, 2, 2};
    show(test::makeChain(8), input);
    const QString reason = QStringLiteral("block 2 is not next to op1");
    m_view.setDropCheck([&](ir::OpId, int block) { return block == 2 ? reason : QString(); });
    QSignalSpy status(&m_view, &GraphView::statusMessage);
    QSignalSpy dropped(&m_view, &GraphView::opDropRequested);

    dragOpOver(ir::OpId(1), 2);
    ClusterItem* refusing = scene().clusterForBlock(2);
    EXPECT_EQ(refusing->dropState(), DropState::Refused);
    EXPECT_FALSE(refusing->isDropTarget());
    EXPECT_EQ(canvas().dropRefusal(), reason);
    EXPECT_EQ(canvas().viewport()->cursor().shape(), Qt::ForbiddenCursor);
    ASSERT_GE(status.count(), 1);
    EXPECT_EQ(status.last().at(0).toString(), reason);
    // Drawn unlike a block that takes the op: the "no" sign beside the badge is painted.
    const QRectF sign = refusing->refusalSignRect();
    const QImage refused = renderScene(sign);
    refusing->setDropState(DropState::Accepted);
    const QImage accepted = renderScene(sign);
    refusing->setDropState(DropState::Refused);
    EXPECT_NE(refused, accepted);
    EXPECT_FALSE(sign.intersects(refusing->badgeRect())) << "the sign leaves the badge readable";

    release();
    EXPECT_EQ(dropped.count(), 0) << "a refused drop asks for nothing";
    EXPECT_EQ(refusing->dropState(), DropState::None);
    EXPECT_EQ(status.last().at(0).toString(), reason);
    EXPECT_FALSE(canvas().isDraggingOp());
}

TEST_F(GraphDropTest, ABlockThatTakesTheOpIsATargetAndTheDropIsRequested) {
    layout::LayoutInput input;
    input.blockOfOp = {0, 0, 0, 1, 1, 1, 2, 2};
    show(test::makeChain(8), input);
    m_view.setDropCheck([](ir::OpId, int block) {
        return block == 2 ? QStringLiteral("not next to it") : QString();
    });
    QSignalSpy dropped(&m_view, &GraphView::opDropRequested);
    dragOpOver(ir::OpId(2), 1);
    EXPECT_EQ(scene().clusterForBlock(1)->dropState(), DropState::Accepted);
    EXPECT_TRUE(canvas().dropRefusal().isEmpty());
    release();
    ASSERT_EQ(dropped.count(), 1);
    EXPECT_EQ(dropped.at(0).at(0).value<ir::OpId>(), ir::OpId(2));
    EXPECT_EQ(dropped.at(0).at(1).toInt(), 1);
}

TEST_F(GraphDropTest, BoundaryHandlesCoverNoBadgeAndNoNode) {
    layout::LayoutInput input;
    input.blockOfOp = {0, 0, 1, 1, 2, 2, 3, 3};
    show(test::makeChain(8), input);
    // Long badges: the pills reach across the column the edges run down.
    std::vector<BlockBadge> badges;
    for (int block = 0; block < 4; ++block)
        badges.push_back({.block = block,
                          .mp = 16,
                          .predictedSeconds = 12.345e-3,
                          .dramBytes = std::uint64_t{987654321}});
    m_view.setBadges(badges);
    ASSERT_EQ(scene().handleCount(), 3u);
    for (std::size_t h = 0; h < scene().handleCount(); ++h) {
        const QRectF handle = scene().handle(h)->sceneBoundingRect();
        for (std::size_t c = 0; c < scene().clusterCount(); ++c)
            EXPECT_FALSE(handle.intersects(scene().cluster(c)->badgeRect()))
                << "handle " << h << " covers the badge of block " << scene().cluster(c)->block();
        for (std::size_t n = 0; n < scene().nodeCount(); ++n)
            EXPECT_FALSE(handle.intersects(scene().node(n)->sceneBox()))
                << "handle " << h << " covers node " << n;
        // Still on its edge, between its two blocks' ops.
        const BoundaryHandleItem* item = scene().handle(h);
        const QRectF producer = scene().nodeForOp(item->producer())->sceneBox();
        const QRectF consumer = scene().nodeForOp(item->consumer())->sceneBox();
        EXPECT_GT(item->pos().y(), producer.bottom());
        EXPECT_LT(item->pos().y(), consumer.top());
    }
}

TEST_F(GraphDropTest, ACollapsedBlocksBadgeLeavesItsTitleReadable) {
    layout::LayoutInput input;
    input.blockOfOp = {0, 0, 0, 1, 1, 1};
    input.collapsedBlocks = {0};
    show(test::makeChain(6), input);
    m_view.setBadges({{.block = 0,
                       .mp = 16,
                       .predictedSeconds = 12.345e-3,
                       .dramBytes = std::uint64_t{987654321}}});
    NodeItem* node = scene().nodeForBlock(0);
    ASSERT_NE(node, nullptr);
    ASSERT_FALSE(node->content().badge.isEmpty());
    // The title line starts paddingY below the box's top; the pill ends above it.
    EXPECT_LE(node->badgePill().bottom(), scene().graphStyle().metrics.paddingY);
    EXPECT_TRUE(node->boundingRect().contains(node->badgePill()));
}

} // namespace
} // namespace strata::views::graph
