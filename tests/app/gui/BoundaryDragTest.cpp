// Dragging a block boundary along a chain: the handle on an edge between two blocks, dropped on
// the consumer, grows the upstream block by it; dropped on the producer, shrinks it; both are
// one undoable step that undo restores exactly; a drop on an op of a third block is refused
// with the reason and changes nothing; the same with synthesised mouse events.

#include "panels/DiagnosticsPanel.h"
#include "tabs/GraphTab.h"
#include "support/GuiTestSupport.h"
#include "shell/MainWindow.h"
#include "document/ScheduleDocument.h"
#include "schedule/Edits.h"
#include "support/WindowFixture.h"
#include "views/graph/GraphCanvas.h"
#include "views/graph/GraphItems.h"
#include "views/graph/GraphScene.h"
#include "views/graph/GraphView.h"

#include <QMouseEvent>
#include <QSettings>
#include <QSignalSpy>
#include <QUndoStack>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

namespace sch = strata::schedule;

class BoundaryDragTest : public test::WindowFixture {
  protected:
    views::graph::GraphView* view() const { return m_window->graphTab()->view(); }
    views::graph::GraphScene& scene() const { return *view()->scene(); }

    bool open() { return openSample("resnet_tiny.onnx", QStringLiteral("mncore2")); }

    // A handle whose consumer core's moveOp accepts into the producer's block.
    views::graph::BoundaryHandleItem* growableHandle() const {
        for (std::size_t i = 0; i < scene().handleCount(); ++i) {
            views::graph::BoundaryHandleItem* h = scene().handle(i);
            const int a = document().blockOfOp(h->producer());
            if (sch::moveOp(*document().schedule(), *document().graph(), h->consumer(), a).ok())
                return h;
        }
        return nullptr;
    }
};

TEST_F(BoundaryDragTest, EdgesBetweenBlocksHaveHandles) {
    if (!open())
        FAIL() << "cannot open the committed sample";
    ASSERT_GT(document().schedule()->blocks.size(), 1u);
    ASSERT_GT(scene().handleCount(), 0u);
    for (std::size_t i = 0; i < scene().handleCount(); ++i) {
        const views::graph::BoundaryHandleItem* h = scene().handle(i);
        EXPECT_NE(document().blockOfOp(h->producer()), document().blockOfOp(h->consumer()));
    }
}

TEST_F(BoundaryDragTest, DroppingOnTheConsumerGrowsTheBlockAndUndoRestoresIt) {
    if (!open())
        FAIL() << "cannot open the committed sample";
    views::graph::BoundaryHandleItem* handle = growableHandle();
    ASSERT_NE(handle, nullptr);
    const ir::OpId producer = handle->producer();
    const ir::OpId consumer = handle->consumer();
    const int a = document().blockOfOp(producer);
    const sch::Schedule before = *document().schedule();

    emit view()->boundaryDragRequested(producer, consumer, consumer);
    EXPECT_EQ(document().blockOfOp(consumer), a);
    EXPECT_NE(*document().schedule(), before);
    EXPECT_EQ(document().undoStack()->count(), 1);
    ASSERT_TRUE(settle());

    document().undoStack()->undo();
    EXPECT_EQ(*document().schedule(), before);
}

TEST_F(BoundaryDragTest, DroppingOnTheProducerShrinksTheBlock) {
    if (!open())
        FAIL() << "cannot open the committed sample";
    for (std::size_t i = 0; i < scene().handleCount(); ++i) {
        const views::graph::BoundaryHandleItem* h = scene().handle(i);
        const int b = document().blockOfOp(h->consumer());
        if (!sch::moveOp(*document().schedule(), *document().graph(), h->producer(), b).ok())
            continue;
        const ir::OpId producer = h->producer();
        emit view()->boundaryDragRequested(producer, h->consumer(), producer);
        EXPECT_EQ(document().blockOfOp(producer), b);
        return;
    }
    FAIL() << "no boundary of the committed sample can move upstream";
}

TEST_F(BoundaryDragTest, ADropOnAThirdBlockIsRefusedWithTheReason) {
    if (!open())
        FAIL() << "cannot open the committed sample";
    ASSERT_GE(document().schedule()->blocks.size(), 3u);
    ASSERT_GT(scene().handleCount(), 0u);
    const views::graph::BoundaryHandleItem* h = scene().handle(0);
    const int a = document().blockOfOp(h->producer());
    const int b = document().blockOfOp(h->consumer());
    ir::OpId elsewhere;
    for (const sch::Block& block : document().schedule()->blocks)
        if (block.id != a && block.id != b)
            elsewhere = block.ops.front();
    ASSERT_TRUE(elsewhere.valid());
    const sch::Schedule before = *document().schedule();
    QSignalSpy refused(&document(), &ScheduleDocument::editRefused);
    emit view()->boundaryDragRequested(h->producer(), h->consumer(), elsewhere);
    ASSERT_EQ(refused.count(), 1);
    EXPECT_TRUE(refused.at(0).at(0).toString().contains(QStringLiteral("drop the boundary")))
        << refused.at(0).at(0).toString().toStdString();
    EXPECT_EQ(*document().schedule(), before);
    EXPECT_EQ(document().undoStack()->count(), 0);
}

TEST_F(BoundaryDragTest, DraggingTheHandleWithTheMouseMovesTheBoundary) {
    if (!open())
        FAIL() << "cannot open the committed sample";
    views::graph::BoundaryHandleItem* handle = growableHandle();
    ASSERT_NE(handle, nullptr);
    const ir::OpId consumer = handle->consumer();
    const int a = document().blockOfOp(handle->producer());
    views::graph::GraphCanvas* canvas = view()->canvas();
    views::graph::NodeItem* node = scene().nodeForOp(consumer);
    ASSERT_NE(node, nullptr);
    canvas->restoreView(0.8, handle->pos());
    const QPoint from = canvas->mapFromScene(handle->pos());
    const QPoint to = canvas->mapFromScene(node->sceneBox().center());
    ASSERT_TRUE(canvas->viewport()->rect().contains(from));
    ASSERT_TRUE(canvas->viewport()->rect().contains(to));

    QTest::mousePress(canvas->viewport(), Qt::LeftButton, Qt::NoModifier, from);
    for (int step = 1; step <= 6; ++step) {
        const QPoint at = from + (to - from) * step / 6;
        QMouseEvent move(QEvent::MouseMove, at, canvas->viewport()->mapToGlobal(at), Qt::NoButton,
                         Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(canvas->viewport(), &move);
    }
    QTest::mouseRelease(canvas->viewport(), Qt::LeftButton, Qt::NoModifier, to);
    EXPECT_EQ(document().blockOfOp(consumer), a);
    EXPECT_EQ(document().undoStack()->count(), 1);
}

} // namespace
} // namespace strata::gui
