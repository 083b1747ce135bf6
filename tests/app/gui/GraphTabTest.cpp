// The Graph tab in the main window: a sample opens into a laid-out graph, graph and op table
// share the selection, a partition becomes clusters with badges, and a big graph opens as an
// overview whose chunks expand and collapse on request.

#include "tabs/GraphTab.h"

#include "support/WindowFixture.h"
#include "shell/MainWindow.h"
#include "views/graph/GraphCanvas.h"
#include "views/graph/GraphItems.h"
#include "views/graph/GraphScene.h"
#include "views/graph/GraphView.h"

#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTreeWidget>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

using test::kLoadTimeoutMs;
using views::graph::GraphView;

constexpr int kLayoutTimeoutMs = 60'000;

class GraphTabTest : public test::WindowFixture {
  protected:
    GraphTabTest() : WindowFixture({1400, 900}) {}

    GraphView* view() const { return m_window->graphTab()->view(); }
    views::graph::GraphScene& scene() const { return *view()->scene(); }

    // Opens `path`, waits for the import, its schedule and the layouts; returns whether the
    // last layout worked.
    bool openAndLayOut(const QString& path) {
        QSignalSpy loaded(m_window.get(), &MainWindow::loadFinished);
        QSignalSpy laidOut(m_window.get(), &MainWindow::graphLayoutFinished);
        m_window->openFile(path);
        if (!QTest::qWaitFor([&] { return loaded.count() > 0; }, kLoadTimeoutMs) ||
            !loaded.at(0).at(1).toBool())
            return false;
        if (!test::waitUntilIdle([&] { return m_window->isBusy(); }) || laidOut.isEmpty())
            return false;
        return laidOut.last().at(0).toBool();
    }

    // Runs `action` and waits for the layout it starts.
    bool relayout(const std::function<void()>& action) {
        QSignalSpy laidOut(m_window.get(), &MainWindow::graphLayoutFinished);
        action();
        if (!QTest::qWaitFor([&] { return laidOut.count() > 0; }, kLayoutTimeoutMs))
            return false;
        return laidOut.at(0).at(0).toBool();
    }

    const ir::Graph& graph() const { return *scene().graph(); }
};

TEST_F(GraphTabTest, ASampleOpensIntoTheLaidOutGraph) {
    const QString path = test::samplePath("resnet_tiny.onnx");
    if (!QFileInfo::exists(path))
        FAIL() << "cannot open the committed sample";
    ASSERT_TRUE(openAndLayOut(path));
    auto* tabs = m_window->findChild<QTabWidget*>(QStringLiteral("centralTabs"));
    ASSERT_NE(tabs, nullptr);
    EXPECT_EQ(tabs->currentWidget()->objectName(), QStringLiteral("graphTab"));
    EXPECT_EQ(tabs->tabText(0), QStringLiteral("Graph"));
    EXPECT_EQ(tabs->tabText(1), QStringLiteral("Program"));
    EXPECT_EQ(tabs->tabText(2), QStringLiteral("Pipeline"));
    EXPECT_EQ(tabs->tabText(3), QStringLiteral("Ops"));
    EXPECT_TRUE(view()->isShowingGraph());
    EXPECT_FALSE(m_window->isLayingOut());
    EXPECT_EQ(scene().nodeCount(),
              graph().ops.size() + graph().inputs.size() + graph().outputs.size());
    for (std::uint32_t op = 0; op < graph().ops.size(); ++op)
        EXPECT_NE(scene().nodeForOp(ir::OpId(op)), nullptr);
    // The first view is readable: text is drawn (zoom above the level-of-detail cut).
    EXPECT_GE(view()->canvas()->zoom(), 0.5);
    EXPECT_TRUE(
        m_window->statusBar()->currentMessage().startsWith(QStringLiteral("Graph laid out")))
        << m_window->statusBar()->currentMessage().toStdString();
}

TEST_F(GraphTabTest, GraphAndOpTableShareTheSelection) {
    const QString path = test::samplePath("resnet_tiny.onnx");
    if (!QFileInfo::exists(path))
        FAIL() << "cannot open the committed sample";
    ASSERT_TRUE(openAndLayOut(path));
    auto* table = m_window->findChild<QTableView*>(QStringLiteral("opTable"));
    ASSERT_NE(table, nullptr);

    view()->selectOp(ir::OpId(5));
    EXPECT_EQ(table->currentIndex().row(), 5); // the table is sorted by index

    table->setCurrentIndex(table->model()->index(9, 0));
    ASSERT_TRUE(view()->selectedOp());
    EXPECT_EQ(view()->selectedOp()->index, 9u);
}

TEST_F(GraphTabTest, APartitionIsDrawnAsBadgedClusters) {
    const QString path = test::samplePath("transformer_block.onnx");
    if (!QFileInfo::exists(path))
        FAIL() << "cannot open the committed sample";
    ASSERT_TRUE(openAndLayOut(path));
    const std::size_t ops = graph().ops.size();
    std::vector<int> blocks(ops);
    for (std::size_t i = 0; i < ops; ++i)
        blocks[i] = static_cast<int>(i / 5);
    ASSERT_TRUE(relayout([&] {
        m_window->setPartition(blocks, {{.block = 2, .mp = 8, .predictedSeconds = 2.5e-5}});
    }));
    EXPECT_EQ(scene().clusterCount(), (ops + 4) / 5);
    ASSERT_NE(scene().clusterForBlock(2), nullptr);
    EXPECT_EQ(scene().clusterForBlock(2)->badgeText(),
              QStringLiteral("Block 2 \u00b7 mp 8 \u00b7 25.0 \u00b5s"));

    // Collapsing a block through the view's request makes it one node, and back.
    ASSERT_TRUE(relayout([&] { emit view()->collapseBlockRequested(2); }));
    EXPECT_EQ(scene().clusterForBlock(2), nullptr);
    ASSERT_NE(scene().nodeForBlock(2), nullptr);
    EXPECT_EQ(scene().nodeForOp(ir::OpId(10)), scene().nodeForBlock(2));
    ASSERT_TRUE(relayout([&] { emit view()->expandBlockRequested(2); }));
    EXPECT_NE(scene().clusterForBlock(2), nullptr);
}

TEST_F(GraphTabTest, APartitionThatDoesNotFitIsRefused) {
    const QString path = test::samplePath("resnet_tiny.onnx");
    if (!QFileInfo::exists(path))
        FAIL() << "cannot open the committed sample";
    ASSERT_TRUE(openAndLayOut(path));
    auto* diagnostics = m_window->findChild<QTreeWidget*>(QStringLiteral("diagnosticsList"));
    const int before = diagnostics->topLevelItemCount();
    const std::size_t clusters = scene().clusterCount(); // the schedule's blocks
    m_window->setPartition({0, 1}, {});
    EXPECT_FALSE(m_window->isLayingOut());
    EXPECT_TRUE(view()->isShowingGraph());
    EXPECT_EQ(scene().clusterCount(), clusters);
    ASSERT_EQ(diagnostics->topLevelItemCount(), before + 1);
    EXPECT_TRUE(diagnostics->topLevelItem(before)->text(1).contains(QStringLiteral("2 entries")));
}

TEST_F(GraphTabTest, ABigGraphOpensAsAnOverviewThatExpands) {
    GraphTab* tab = m_window->graphTab();
    QSignalSpy laidOut(tab, &GraphTab::layoutFinished);
    tab->setGraph(test::makeChainGraph(3000));
    // The UI stays responsive and says what it is doing while the layout runs.
    EXPECT_TRUE(tab->isLayingOut());
    EXPECT_FALSE(view()->isShowingGraph());
    EXPECT_TRUE(view()->message().startsWith(QStringLiteral("Laying out 3000 ops")) ||
                view()->message().startsWith(QStringLiteral("Preparing")))
        << view()->message().toStdString();
    ASSERT_TRUE(QTest::qWaitFor([&] { return laidOut.count() > 0; }, kLayoutTimeoutMs));
    ASSERT_TRUE(laidOut.at(0).at(0).toBool());
    EXPECT_TRUE(tab->shownInput().blocksAreChunks);
    const std::size_t collapsed = tab->shownInput().collapsedBlocks.size();
    EXPECT_GT(collapsed, 50u);
    EXPECT_EQ(scene().clusterCount(), 0u);

    // Double-clicking chunk 3 expands it into a cluster of its ops; the rest stay collapsed.
    views::graph::NodeItem* chunk = scene().nodeForBlock(3);
    ASSERT_NE(chunk, nullptr);
    view()->canvas()->centerOn(chunk);
    const QPoint at = view()->canvas()->mapFromScene(chunk->sceneBox().center());
    QTest::mouseDClick(view()->canvas()->viewport(), Qt::LeftButton, Qt::NoModifier, at);
    EXPECT_TRUE(tab->isLayingOut());
    EXPECT_TRUE(view()->isShowingGraph()); // the overview stays while the expansion runs
    ASSERT_TRUE(QTest::qWaitFor([&] { return laidOut.count() > 1; }, kLayoutTimeoutMs));
    ASSERT_TRUE(laidOut.at(1).at(0).toBool());
    EXPECT_EQ(tab->shownInput().collapsedBlocks.size(), collapsed - 1);
    ASSERT_NE(scene().clusterForBlock(3), nullptr);
    EXPECT_EQ(scene().clusterForBlock(3)->badgeText().left(4), QStringLiteral("Ops "));
}

} // namespace
} // namespace strata::gui
