// Where the graph view looks on its own: the first view of a layout and Fit. A long model must
// open at its top at a readable zoom, framed on the nodes of that first screen, and Fit must
// never shrink it below a readable zoom (it fits the width then, and says so).

#include "../ShownGraphView.h"
#include "../TestGraphs.h"
#include "views/graph/GraphCanvas.h"
#include "views/graph/GraphItems.h"
#include "views/graph/GraphScene.h"
#include "views/graph/GraphView.h"

#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>

namespace strata::views::graph {
namespace {

class GraphFramingTest : public test::ShownGraphView {
  protected:
    void show(std::shared_ptr<const ir::Graph> graph) {
        m_graph = std::move(graph);
        auto laid = test::layOut(*m_graph, {}, m_view.textMetrics());
        ASSERT_NE(laid, nullptr);
        m_view.showGraphLayout(m_graph, laid, {});
    }

    GraphScene& scene() { return *m_view.scene(); }
    GraphCanvas& canvas() { return *m_view.canvas(); }
    QSizeF viewportSize() { return QSizeF(canvas().viewport()->size()); }

    QRectF visibleScene() {
        return canvas().mapToScene(canvas().viewport()->rect()).boundingRect();
    }

    // The zoom at which the whole graph would fit the viewport.
    double fitAllZoom() {
        const QRectF graph = scene().graphRect();
        return std::min(viewportSize().width() / graph.width(),
                        viewportSize().height() / graph.height());
    }

    // The nodes whose top lies above `bottom`, united.
    QRectF nodesAbove(double bottom) {
        QRectF out;
        for (std::size_t i = 0; i < scene().nodeCount(); ++i)
            if (const QRectF box = scene().node(i)->sceneBox(); box.top() < bottom)
                out = out.isNull() ? box : out.united(box);
        return out;
    }

    std::shared_ptr<const ir::Graph> m_graph;
};

TEST_F(GraphFramingTest, ALongGraphOpensAtItsTopCentredAndReadable) {
    show(test::makeChain(300));
    ASSERT_LT(fitAllZoom(), GraphCanvas::kMinReadableZoom) << "the chain must be too long to read";
    EXPECT_GE(canvas().zoom(), GraphCanvas::kMinReadableZoom);
    const QRectF visible = visibleScene();
    const QRectF graph = scene().graphRect();
    // The top of the graph, across its whole width (a chain is narrower than the viewport).
    EXPECT_NEAR(visible.top(), graph.top(), 1.0);
    EXPECT_LE(visible.left(), graph.left());
    EXPECT_GE(visible.right(), graph.right());
    // Centred on what the first screen shows.
    EXPECT_NEAR(nodesAbove(visible.bottom()).center().x(), visible.center().x(), 1.0);
    EXPECT_TRUE(visible.contains(scene().nodeForOp(ir::OpId(0))->sceneBox()));
}

TEST_F(GraphFramingTest, ATopWiderThanTheViewOpensAtItsTopLeftCorner) {
    show(test::makeFan(30));
    const QRectF visible = visibleScene();
    const QRectF top = nodesAbove(visible.bottom());
    ASSERT_GT(top.width(), visible.width()) << "the first rank must be wider than the view";
    EXPECT_GE(canvas().zoom(), GraphCanvas::kMinReadableZoom);
    // The top-left node is on screen, with no more than a margin of empty canvas left of it.
    QRectF topLeft;
    for (std::size_t i = 0; i < scene().nodeCount(); ++i)
        if (const QRectF box = scene().node(i)->sceneBox();
            box.top() < visible.bottom() && (topLeft.isNull() || box.left() < topLeft.left()))
            topLeft = box;
    EXPECT_TRUE(visible.contains(topLeft));
    EXPECT_GE(visible.left(), top.left() - 40);
    EXPECT_NEAR(visible.top(), scene().graphRect().top(), 1.0);
}

TEST_F(GraphFramingTest, FitShowsAReadableGraphWhole) {
    show(test::makeChain(10));
    // A viewport where the whole chain fits at a readable zoom below 100 %.
    const double target = 0.8 * scene().graphRect().height();
    m_view.resize(1000, m_view.height() + qRound(target - viewportSize().height()));
    QCoreApplication::processEvents();
    const double fitAll = fitAllZoom();
    ASSERT_GE(fitAll, GraphCanvas::kMinReadableZoom);
    ASSERT_LT(fitAll, 1.0);
    QSignalSpy status(&m_view, &GraphView::statusMessage);
    canvas().setZoom(2.0);
    m_view.fitToView();
    EXPECT_NEAR(canvas().zoom(), fitAll, 1e-9);
    const double pixel = 1 / canvas().zoom(); // scrolling is by whole pixels
    EXPECT_TRUE(visibleScene()
                    .adjusted(-2 * pixel, -2 * pixel, 2 * pixel, 2 * pixel)
                    .contains(scene().graphRect()));
    EXPECT_EQ(status.count(), 0);
}

TEST_F(GraphFramingTest, FitOnALongGraphFitsItsWidthKeepsThePlaceAndSaysSo) {
    show(test::makeChain(300));
    ASSERT_LT(fitAllZoom(), GraphCanvas::kMinReadableZoom);
    const NodeItem* middle = scene().nodeForOp(ir::OpId(150));
    m_view.selectOp(ir::OpId(150));
    canvas().setZoom(2.0);
    QSignalSpy status(&m_view, &GraphView::statusMessage);
    m_view.fitToView();

    const QRectF graph = scene().graphRect();
    const double fitWidth = viewportSize().width() / graph.width();
    EXPECT_NEAR(canvas().zoom(), std::clamp(fitWidth, GraphCanvas::kMinReadableZoom, 1.0), 1e-9);
    const QRectF visible = visibleScene();
    EXPECT_LE(visible.left(), graph.left());
    EXPECT_GE(visible.right(), graph.right());
    EXPECT_TRUE(visible.contains(middle->sceneBox())) << "Fit keeps showing where the user was";
    ASSERT_EQ(status.count(), 1);
    EXPECT_TRUE(status.at(0).at(0).toString().contains(
        QStringLiteral("%1 %").arg(qRound(canvas().zoom() * 100))));
}

TEST_F(GraphFramingTest, FitOnAGraphTooWideToReadStopsAtTheReadableMinimum) {
    show(test::makeFan(60));
    const QRectF graph = scene().graphRect();
    ASSERT_LT(viewportSize().width() / graph.width(), GraphCanvas::kMinReadableZoom);
    QSignalSpy status(&m_view, &GraphView::statusMessage);
    m_view.fitToView();
    EXPECT_DOUBLE_EQ(canvas().zoom(), GraphCanvas::kMinReadableZoom);
    // The view stays on the graph: no empty canvas beyond its edges.
    const QRectF visible = visibleScene();
    EXPECT_GE(visible.left(), graph.left() - 1);
    EXPECT_LE(visible.right(), graph.right() + 1);
    EXPECT_EQ(status.count(), 1);
}

} // namespace
} // namespace strata::views::graph
