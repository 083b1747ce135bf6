// The graph view over real layouts (Graphviz in-process): one item per node, search, zoom and
// fit, keyboard navigation, tooltips, block badges and the expand/collapse requests.

#include "views/graph/GraphView.h"

#include "ShownGraphView.h"
#include "TestGraphs.h"
#include "views/graph/GraphCanvas.h"
#include "views/graph/GraphItems.h"
#include "views/graph/GraphScene.h"
#include "views/graph/HeatLegend.h"

#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTest>
#include <gtest/gtest.h>

namespace strata::views::graph {
namespace {

using test::layOut;
using test::makeChain;

class GraphViewTest : public test::ShownGraphView {
  protected:
    void show(std::shared_ptr<const ir::Graph> graph, layout::LayoutInput input = {}) {
        m_graph = std::move(graph);
        auto laid = layOut(*m_graph, input, m_view.textMetrics());
        ASSERT_NE(laid, nullptr);
        m_view.showGraphLayout(m_graph, laid, input);
    }

    GraphScene& scene() { return *m_view.scene(); }
    GraphCanvas& canvas() { return *m_view.canvas(); }
    ir::OpId opNamed(const char* name) { return *m_graph->findOp(name); }

    // The viewport's visible area in scene coordinates.
    QRectF visibleScene() {
        return canvas().mapToScene(canvas().viewport()->rect()).boundingRect();
    }

    std::shared_ptr<const ir::Graph> m_graph;
};

TEST_F(GraphViewTest, StartsWithAMessage) {
    EXPECT_FALSE(m_view.isShowingGraph());
    EXPECT_EQ(m_view.message(), QStringLiteral("No model"));
    m_view.showMessage(QStringLiteral("Laying out 3 ops\u2026"), true);
    EXPECT_EQ(m_view.message(), QStringLiteral("Laying out 3 ops\u2026"));
}

TEST_F(GraphViewTest, TheSceneHasOneItemPerOpEdgeAndTerminal) {
    show(test::makeSmallGraph());
    EXPECT_TRUE(m_view.isShowingGraph());
    // 3 ops, 1 input, 1 output.
    ASSERT_EQ(scene().nodeCount(), 5u);
    int opNodes = 0;
    for (std::size_t i = 0; i < scene().nodeCount(); ++i)
        if (scene().node(i)->ref().kind == layout::NodeKind::Op)
            ++opNodes;
    EXPECT_EQ(opNodes, 3);
    for (std::uint32_t op = 0; op < 3; ++op) {
        const NodeItem* node = scene().nodeForOp(ir::OpId(op));
        ASSERT_NE(node, nullptr);
        EXPECT_EQ(node->ref(), layout::NodeRef::op(ir::OpId(op)));
        EXPECT_EQ(node->content().name.toStdString(), m_graph->ops[op].name);
        EXPECT_EQ(node->content().title.toStdString(), m_graph->ops[op].type);
    }
    // input->conv1->relu1->fc->output; the weights are not drawn.
    EXPECT_EQ(scene().edgeCount(), 4u);
    EXPECT_EQ(scene().clusterCount(), 0u);
    EXPECT_EQ(scene().items().size(), 9);
    EXPECT_EQ(m_view.findChild<QLabel*>(QStringLiteral("graphSize"))->text(),
              QStringLiteral("3 ops"));
}

TEST_F(GraphViewTest, LabelsFitTheirBoxes) {
    show(test::makeSmallGraph());
    // The layout sized the boxes with the view's own fonts: nothing is elided.
    for (std::size_t i = 0; i < scene().nodeCount(); ++i) {
        const NodeItem* node = scene().node(i);
        const QFontMetricsF body(scene().graphStyle().bodyFont);
        const double room =
            node->sceneBox().width() - 2 * scene().graphStyle().metrics.paddingX + 0.5;
        EXPECT_LE(body.horizontalAdvance(node->content().name), room)
            << node->content().name.toStdString();
    }
}

TEST_F(GraphViewTest, SearchFindsSelectsAndCyclesThroughMatches) {
    show(makeChain(6));
    QSignalSpy selected(&m_view, &GraphView::opSelected);
    QLineEdit* search = m_view.searchField();
    QTest::keyClicks(search, QStringLiteral("relu"));
    auto* count = m_view.findChild<QLabel*>(QStringLiteral("graphMatchCount"));
    EXPECT_EQ(count->text(), QStringLiteral("3 matches"));
    for (std::uint32_t op : {1u, 3u, 5u})
        EXPECT_TRUE(scene().nodeForOp(ir::OpId(op))->isSearchHit());
    EXPECT_FALSE(scene().nodeForOp(ir::OpId(0))->isSearchHit());

    QTest::keyClick(search, Qt::Key_Return);
    ASSERT_TRUE(m_view.selectedOp());
    EXPECT_EQ(m_view.selectedOp()->index, 1u);
    EXPECT_EQ(count->text(), QStringLiteral("1 of 3"));
    EXPECT_TRUE(visibleScene().contains(scene().nodeForOp(ir::OpId(1))->sceneBox()));
    QTest::keyClick(search, Qt::Key_Return);
    EXPECT_EQ(m_view.selectedOp()->index, 3u);
    QTest::keyClick(search, Qt::Key_Return);
    QTest::keyClick(search, Qt::Key_Return); // wraps around
    EXPECT_EQ(m_view.selectedOp()->index, 1u);
    QTest::keyClick(search, Qt::Key_Return, Qt::ShiftModifier);
    EXPECT_EQ(m_view.selectedOp()->index, 5u);
    ASSERT_EQ(selected.count(), 5);
    EXPECT_EQ(selected.last().at(0).value<ir::OpId>().index, 5u);

    search->clear();
    QTest::keyClicks(search, QStringLiteral("op4"));
    QTest::keyClick(search, Qt::Key_Return);
    EXPECT_EQ(m_view.selectedOp()->index, 4u);
    search->clear();
    QTest::keyClicks(search, QStringLiteral("no-such-op"));
    EXPECT_EQ(count->text(), QStringLiteral("No match"));
    QTest::keyClick(search, Qt::Key_Return); // nothing to go to: nothing happens
    EXPECT_EQ(m_view.selectedOp()->index, 4u);
}

TEST_F(GraphViewTest, SelectOpSelectsCentresAndEmitsOnce) {
    show(makeChain(40));
    QSignalSpy selected(&m_view, &GraphView::opSelected);
    m_view.selectOp(ir::OpId(30));
    ASSERT_TRUE(m_view.selectedOp());
    EXPECT_EQ(m_view.selectedOp()->index, 30u);
    EXPECT_TRUE(visibleScene().contains(scene().nodeForOp(ir::OpId(30))->sceneBox()));
    m_view.selectOp(ir::OpId(30));
    EXPECT_EQ(selected.count(), 1);
    m_view.selectOp(ir::OpId(999)); // not in the graph: ignored
    EXPECT_EQ(m_view.selectedOp()->index, 30u);
    // The selected node's edges are lit.
    int lit = 0;
    for (std::size_t i = 0; i < scene().edgeCount(); ++i)
        lit += scene().edge(i)->isHighlighted() ? 1 : 0;
    EXPECT_EQ(lit, 2);
}

TEST_F(GraphViewTest, UpAndDownWalkToProducerAndConsumer) {
    show(test::makeSmallGraph());
    m_view.selectOp(opNamed("relu1"));
    canvas().setFocus();
    QTest::keyClick(&canvas(), Qt::Key_Down);
    EXPECT_EQ(m_view.selectedOp(), opNamed("fc"));
    QTest::keyClick(&canvas(), Qt::Key_Up);
    QTest::keyClick(&canvas(), Qt::Key_Up);
    EXPECT_EQ(m_view.selectedOp(), opNamed("conv1"));
    QTest::keyClick(&canvas(), Qt::Key_Up); // to the graph input
    EXPECT_FALSE(m_view.selectedOp());
    ASSERT_NE(scene().selectedNode(), nullptr);
    EXPECT_EQ(scene().selectedNode()->ref().kind, layout::NodeKind::Input);
    QTest::keyClick(&canvas(), Qt::Key_Escape);
    EXPECT_EQ(scene().selectedNode(), nullptr);
}

TEST_F(GraphViewTest, ZoomKeysZoomAndFFits) {
    // Fit itself: GraphFramingTest.
    show(makeChain(60));
    canvas().setZoom(2.0);
    EXPECT_DOUBLE_EQ(canvas().zoom(), 2.0);
    m_view.fitToView();
    EXPECT_LT(canvas().zoom(), 2.0);
    auto* zoomLabel = m_view.findChild<QLabel*>(QStringLiteral("graphZoom"));
    EXPECT_EQ(zoomLabel->text(), QStringLiteral("%1 %").arg(qRound(canvas().zoom() * 100)));

    const double fitted = canvas().zoom();
    canvas().setFocus();
    QTest::keyClick(&canvas(), Qt::Key_Plus);
    EXPECT_NEAR(canvas().zoom(), fitted * 1.25, 1e-9);
    QTest::keyClick(&canvas(), Qt::Key_Minus);
    EXPECT_NEAR(canvas().zoom(), fitted, 1e-9);
    QTest::keyClick(&canvas(), Qt::Key_0);
    EXPECT_DOUBLE_EQ(canvas().zoom(), 1.0);
    QTest::keyClick(&canvas(), Qt::Key_F);
    EXPECT_NEAR(canvas().zoom(), fitted, 1e-9);
    // Zoom is bounded both ways.
    canvas().setZoom(1e6);
    EXPECT_DOUBLE_EQ(canvas().zoom(), GraphCanvas::kMaxZoom);
    canvas().setZoom(0);
    EXPECT_DOUBLE_EQ(canvas().zoom(), GraphCanvas::kMinZoom);
}

TEST_F(GraphViewTest, WheelZoomKeepsThePointUnderTheMouse) {
    show(makeChain(20));
    canvas().setZoom(1.0);
    const QPoint mouse(300, 200);
    const QPointF before = canvas().mapToScene(mouse);
    QWheelEvent wheel(mouse, canvas().viewport()->mapToGlobal(mouse), QPoint(), QPoint(0, 120),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(canvas().viewport(), &wheel);
    EXPECT_GT(canvas().zoom(), 1.1);
    const QPointF after = canvas().mapToScene(mouse);
    EXPECT_NEAR(after.x(), before.x(), 2.0);
    EXPECT_NEAR(after.y(), before.y(), 2.0);
}

TEST_F(GraphViewTest, EdgesAndNodesExplainThemselvesInTooltips) {
    show(test::makeSmallGraph());
    const layout::GraphLayout& laid = *scene().graphLayout();
    bool sawConvOut = false;
    for (std::size_t i = 0; i < scene().edgeCount(); ++i) {
        const QString tip = scene().edge(i)->toolTip();
        if (m_graph->value(laid.edges[i].value).name != "conv1_out")
            continue;
        sawConvOut = true;
        EXPECT_TRUE(tip.contains(QStringLiteral("conv1_out"))) << tip.toStdString();
        EXPECT_TRUE(tip.contains(QStringLiteral("1x4x8x8"))) << tip.toStdString();
        EXPECT_TRUE(tip.contains(QStringLiteral("float32"))) << tip.toStdString();
        EXPECT_TRUE(tip.contains(QStringLiteral("1 KiB"))) << tip.toStdString();
        EXPECT_TRUE(tip.contains(QStringLiteral("conv1 \u2192 relu1"))) << tip.toStdString();
    }
    EXPECT_TRUE(sawConvOut);
    const QString fc = scene().nodeForOp(opNamed("fc"))->toolTip();
    EXPECT_TRUE(fc.contains(QStringLiteral("MatMul"))) << fc.toStdString();
    EXPECT_TRUE(fc.contains(QStringLiteral("1 GFLOP"))) << fc.toStdString();
}

TEST_F(GraphViewTest, BlocksAreClustersWithBadges) {
    layout::LayoutInput input;
    input.blockOfOp = {0, 0, 1, 1, 2, 2};
    show(makeChain(6), input);
    ASSERT_EQ(scene().clusterCount(), 3u);
    EXPECT_EQ(scene().clusterForBlock(1)->badgeText(), QStringLiteral("Block 1"));
    m_view.setBadges({{.block = 1, .mp = 4, .predictedSeconds = 1.5e-3}});
    EXPECT_EQ(scene().clusterForBlock(1)->badgeText(),
              QStringLiteral("Block 1 \u00b7 mp 4 \u00b7 1.50 ms"));
    EXPECT_EQ(scene().clusterForBlock(0)->badgeText(), QStringLiteral("Block 0"));
    // Every op sits in its block's region.
    for (std::uint32_t op = 0; op < 6; ++op) {
        const QRectF box = scene().nodeForOp(ir::OpId(op))->sceneBox();
        const ClusterItem* cluster = scene().clusterForBlock(input.blockOfOp[op]);
        EXPECT_TRUE(cluster->boundingRect().contains(box));
    }
}

TEST_F(GraphViewTest, TheHeatOverlayColoursBlocksByTheirValueWithALegend) {
    layout::LayoutInput input;
    input.blockOfOp = {0, 0, 1, 1, 2, 2};
    show(makeChain(6), input);
    QComboBox* combo = m_view.heatCombo();
    ASSERT_NE(combo, nullptr);
    EXPECT_EQ(m_view.heatMode(), HeatMode::Off);
    // Prediction error needs a measured run: listed, greyed out, saying why.
    const int error = combo->findData(static_cast<int>(HeatMode::PredictionError));
    auto* items = qobject_cast<QStandardItemModel*>(combo->model());
    ASSERT_NE(items, nullptr);
    EXPECT_FALSE(items->item(error)->isEnabled());
    EXPECT_FALSE(items->item(error)->toolTip().isEmpty());

    QSignalSpy modeChanged(&m_view, &GraphView::heatModeChanged);
    combo->setCurrentIndex(combo->findData(static_cast<int>(HeatMode::PredictedTime)));
    ASSERT_EQ(modeChanged.count(), 1);
    m_view.setHeat({{0, 1e-3}, {1, 4e-3}}, &formatSeconds);
    EXPECT_EQ(scene().clusterForBlock(1)->heat(), heatColor(1.0)); // the largest: darkest
    EXPECT_EQ(scene().clusterForBlock(0)->heat(), heatColor(0.25));
    EXPECT_FALSE(scene().clusterForBlock(2)->heat().has_value()); // no value: own colour
    EXPECT_TRUE(m_view.heatLegend()->isVisible());
    EXPECT_EQ(m_view.heatLegend()->title(), QStringLiteral("Predicted time"));
    EXPECT_EQ(m_view.heatLegend()->high(), QStringLiteral("4.00 ms"));
    // A new layout keeps the overlay.
    show(m_graph, input);
    EXPECT_EQ(scene().clusterForBlock(1)->heat(), heatColor(1.0));
    // Nothing to show yet: a note instead of a scale.
    m_view.setHeat({}, &formatSeconds, QStringLiteral("Predicting"));
    EXPECT_EQ(m_view.heatLegend()->note(), QStringLiteral("Predicting"));
    EXPECT_FALSE(scene().clusterForBlock(1)->heat().has_value());

    combo->setCurrentIndex(0);
    EXPECT_FALSE(m_view.heatLegend()->isVisible());
    EXPECT_FALSE(scene().clusterForBlock(0)->heat().has_value());
    EXPECT_NE(heatColor(0.0), heatColor(1.0));
}

TEST_F(GraphViewTest, DoubleClicksAskToExpandAndCollapseBlocks) {
    layout::LayoutInput input;
    input.blockOfOp = {0, 0, 0, 1, 1, 1};
    input.collapsedBlocks = {0};
    show(makeChain(6), input);
    QSignalSpy expand(&m_view, &GraphView::expandBlockRequested);
    QSignalSpy collapse(&m_view, &GraphView::collapseBlockRequested);

    // Ops of a collapsed block are found in their block's node.
    NodeItem* block = scene().nodeForOp(ir::OpId(1));
    ASSERT_NE(block, nullptr);
    EXPECT_EQ(block->ref(), layout::NodeRef::block(0));
    EXPECT_EQ(block, scene().nodeForBlock(0));

    canvas().centerOn(block);
    const QPoint onBlock = canvas().mapFromScene(block->sceneBox().center());
    QTest::mouseDClick(canvas().viewport(), Qt::LeftButton, Qt::NoModifier, onBlock);
    ASSERT_EQ(expand.count(), 1);
    EXPECT_EQ(expand.at(0).at(0).toInt(), 0);

    ClusterItem* cluster = scene().clusterForBlock(1);
    ASSERT_NE(cluster, nullptr);
    canvas().centerOn(cluster);
    const QPoint onBadge = canvas().mapFromScene(cluster->shape().boundingRect().center());
    QTest::mouseDClick(canvas().viewport(), Qt::LeftButton, Qt::NoModifier, onBadge);
    ASSERT_EQ(collapse.count(), 1);
    EXPECT_EQ(collapse.at(0).at(0).toInt(), 1);

    // Enter on a selected collapsed block expands it too.
    canvas().selectNode(block);
    canvas().setFocus();
    QTest::keyClick(&canvas(), Qt::Key_Return);
    EXPECT_EQ(expand.count(), 2);
}

TEST_F(GraphViewTest, AThousandNodeGraphPaintsAtEveryZoom) {
    show(makeChain(1000));
    EXPECT_EQ(scene().nodeCount(), 1002u);
    QImage image(800, 600, QImage::Format_ARGB32_Premultiplied);
    for (double zoom : {0.03, 0.1, 0.3, 1.0, 3.0}) {
        canvas().setZoom(zoom);
        image.fill(Qt::white);
        QPainter painter(&image);
        canvas().render(&painter);
        painter.end();
        // Something was drawn besides the canvas colour.
        bool drawn = false;
        const QRgb canvasColor = scene().graphStyle().canvas.rgb();
        for (int y = 0; y < image.height() && !drawn; y += 7)
            for (int x = 0; x < image.width() && !drawn; x += 7)
                drawn =
                    image.pixel(x, y) != canvasColor && image.pixel(x, y) != qRgb(255, 255, 255);
        EXPECT_TRUE(drawn) << "zoom " << zoom;
    }
}

TEST_F(GraphViewTest, ANewLayoutKeepsTheSelection) {
    show(makeChain(8));
    m_view.selectOp(ir::OpId(5));
    QSignalSpy selected(&m_view, &GraphView::opSelected);
    show(m_graph);
    EXPECT_EQ(m_view.selectedOp(), ir::OpId(5));
    EXPECT_EQ(selected.count(), 0);
}

TEST_F(GraphViewTest, ALayoutOfAnotherGraphDoesNotCrash) {
    // A caller bug (layout and graph out of step) must not take the app down.
    const auto big = makeChain(10);
    auto laid = layOut(*big, {}, m_view.textMetrics());
    ASSERT_NE(laid, nullptr);
    m_graph = makeChain(3);
    m_view.showGraphLayout(m_graph, laid, {});
    EXPECT_EQ(scene().nodeCount(), laid->nodes.size());
    QImage image(400, 300, QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    canvas().render(&painter);
    painter.end();
    QTest::keyClicks(m_view.searchField(), QStringLiteral("op"));
    QTest::keyClick(m_view.searchField(), Qt::Key_Return);
    EXPECT_TRUE(m_view.selectedOp());
}

} // namespace
} // namespace strata::views::graph
