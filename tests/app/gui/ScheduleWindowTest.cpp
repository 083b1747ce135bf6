// Schedules in the main window: a sample opens with its default schedule drawn as clusters and
// listed one row per block; an op dragged onto a neighbouring block (through the view's own
// request, and with the mouse) moves there and the table and the partition follow; Ctrl+Z /
// Ctrl+Shift+Z restore it exactly; a refused edit says why and changes nothing; the table and
// the graph share the selection; a diagnostic naming a block leads to it; the toolbar's
// target selector makes a new schedule.

#include "document/ScheduleDocument.h"
#include "document/ScheduleEditor.h"
#include "document/SchedulePresentation.h"
#include "panels/DiagnosticsPanel.h"
#include "panels/ScheduleToolBar.h"
#include "schedule/Edits.h"
#include "shell/MainWindow.h"
#include "support/GuiTestSupport.h"
#include "support/WindowFixture.h"
#include "tabs/GraphTab.h"
#include "views/graph/GraphCanvas.h"
#include "views/graph/GraphItems.h"
#include "views/graph/GraphScene.h"
#include "views/graph/GraphView.h"
#include "views/schedule/ScheduleTableModel.h"
#include "views/schedule/ScheduleTableView.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QUndoStack>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

namespace sch = strata::schedule;
using views::schedule::ScheduleTableModel;

class ScheduleWindowTest : public test::WindowFixture {
  protected:
    views::graph::GraphView* view() const { return m_window->graphTab()->view(); }
    views::graph::GraphScene& scene() const { return *view()->scene(); }
    ScheduleTableModel& model() const { return *m_window->scheduleModel(); }
    const sch::Schedule& schedule() const { return *document().schedule(); }

    // Opens a sample and waits for its schedule and the layout of its partition; with
    // `target`, schedules for that target (the host's core count depends on the machine).
    bool open(const char* sample, const QString& target = {},
              sch::Strategy strategy = ScheduleDocument::kDefaultStrategy) {
        document().setStrategy(strategy);
        return openSample(sample, target);
    }

    // The table and the graph show exactly the current schedule.
    void expectShown() {
        ASSERT_TRUE(settle());
        EXPECT_EQ(model().rowCount(), static_cast<int>(schedule().blocks.size()));
        for (std::size_t i = 0; i < schedule().blocks.size(); ++i)
            EXPECT_EQ(model().blockAt(static_cast<int>(i)), schedule().blocks[i].id);
        EXPECT_EQ(m_window->graphTab()->shownInput().blockOfOp, partitionOf(document().snapshot()));
        EXPECT_EQ(scene().clusterCount(), schedule().blocks.size());
    }

    // An op and a neighbouring block it may move into (core's moveOp accepts it).
    std::optional<std::pair<ir::OpId, int>> boundaryMove() const {
        for (const sch::Block& block : schedule().blocks)
            for (ir::OpId op : block.ops)
                for (int to : document().neighbourBlocks(op))
                    if (sch::moveOp(schedule(), *document().graph(), op, to).ok())
                        return std::pair{op, to};
        return std::nullopt;
    }

    // An op and a block core's moveOp refuses it (not its own block).
    std::optional<std::pair<ir::OpId, int>> refusedMove() const {
        for (const sch::Block& block : schedule().blocks)
            for (ir::OpId op : block.ops)
                for (const sch::Block& other : schedule().blocks)
                    if (other.id != block.id &&
                        !sch::moveOp(schedule(), *document().graph(), op, other.id).ok())
                        return std::pair{op, other.id};
        return std::nullopt;
    }

    // Where a mouse drag of `move`'s op starts and where it drops: the view zoomed to `zoom` so
    // both are on screen, the drop on a point of the target block's region off its nodes.
    struct DragPath {
        QPoint from, to;
        views::graph::ClusterItem* target = nullptr;
    };
    std::optional<DragPath> aimDrag(std::pair<ir::OpId, int> move, double zoom) const {
        views::graph::GraphCanvas* canvas = view()->canvas();
        views::graph::NodeItem* node = scene().nodeForOp(move.first);
        views::graph::ClusterItem* target = scene().clusterForBlock(move.second);
        if (node == nullptr || target == nullptr)
            return std::nullopt;
        canvas->restoreView(zoom, node->sceneBox().united(target->box()).center());
        const QPointF drop = target->box().bottomLeft() + QPointF(6, -6);
        DragPath path{canvas->mapFromScene(node->sceneBox().center()), canvas->mapFromScene(drop),
                      target};
        const QRect shown = canvas->viewport()->rect();
        if (!shown.contains(path.from) || !shown.contains(path.to) ||
            scene().blockAt(drop) != move.second)
            return std::nullopt;
        return path;
    }

    // Presses the left button at `path.from` and moves to `path.to` in eight steps, holding it.
    void pressAndDrag(const DragPath& path) const {
        QWidget* viewport = view()->canvas()->viewport();
        QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, path.from);
        for (int step = 1; step <= 8; ++step) {
            const QPoint at = path.from + (path.to - path.from) * step / 8;
            QMouseEvent moveEvent(QEvent::MouseMove, at, viewport->mapToGlobal(at), Qt::NoButton,
                                  Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(viewport, &moveEvent);
        }
    }
};

TEST_F(ScheduleWindowTest, ABlockThatRefusesADraggedOpSaysWhyAndNothingChanges) {
    if (!open("resnet_tiny.onnx", QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    const auto move = refusedMove();
    ASSERT_TRUE(move);
    const auto path = aimDrag(*move, 0.25);
    ASSERT_TRUE(path);
    views::graph::GraphCanvas* canvas = view()->canvas();
    const sch::Schedule before = schedule();

    pressAndDrag(*path);
    ASSERT_TRUE(canvas->isDraggingOp());
    EXPECT_EQ(path->target->dropState(), views::graph::DropState::Refused);
    // Core's reason, in the status bar while the op hangs over the block.
    const std::string reason =
        sch::moveOp(schedule(), *document().graph(), move->first, move->second)
            .diagnostics()
            .front()
            .message;
    EXPECT_TRUE(canvas->dropRefusal().contains(QString::fromStdString(reason)));
    // Elided to the room the status bar has; the whole reason is then its tooltip.
    const QString status = m_window->statusBar()->currentMessage();
    EXPECT_TRUE(status == canvas->dropRefusal() ||
                m_window->statusBar()->toolTip() == canvas->dropRefusal())
        << status.toStdString();
    QTest::mouseRelease(canvas->viewport(), Qt::LeftButton, Qt::NoModifier, path->to);
    EXPECT_EQ(schedule(), before);
    EXPECT_EQ(document().undoStack()->count(), 0);
}

TEST_F(ScheduleWindowTest, ASampleOpensWithTheDefaultSchedule) {
    if (!open("resnet_tiny.onnx"))
        FAIL() << "cannot open the committed sample";
    EXPECT_EQ(schedule().strategy, "fuse-max");
    EXPECT_EQ(document().targetKey(), QStringLiteral("host"));
    auto* bar = m_window->findChild<ScheduleToolBar*>(QStringLiteral("scheduleToolBar"));
    ASSERT_NE(bar, nullptr);
    EXPECT_EQ(bar->targetBox()->currentText(), QStringLiteral("host"));
    EXPECT_EQ(bar->strategyBox()->currentText(), QStringLiteral("fuse-max"));
    expectShown();
    auto* totals = m_window->findChild<QLabel*>(QStringLiteral("scheduleTotals"));
    ASSERT_NE(totals, nullptr);
    EXPECT_TRUE(totals->text().contains(QStringLiteral("%1 blocks").arg(schedule().blocks.size())))
        << totals->text().toStdString();
    EXPECT_TRUE(totals->text().contains(QStringLiteral("valid")));
    // Badges say the block's mp, on the cluster of its colour.
    const sch::Block& first = schedule().blocks.front();
    ASSERT_NE(scene().clusterForBlock(first.id), nullptr);
    EXPECT_TRUE(scene().clusterForBlock(first.id)->badgeText().contains(
        QStringLiteral("mp %1").arg(first.mp)));
}

TEST_F(ScheduleWindowTest, AnOpDroppedOnANeighbourMovesAndUndoRestoresIt) {
    if (!open("resnet_tiny.onnx", QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    const auto move = boundaryMove();
    ASSERT_TRUE(move);
    const sch::Schedule before = schedule();
    const int rowsBefore = model().rowCount();

    emit view()->opDropRequested(move->first, move->second); // what a drag ends with
    ASSERT_NE(schedule(), before);
    EXPECT_EQ(document().blockOfOp(move->first), move->second);
    const sch::Schedule after = schedule();
    expectShown();
    EXPECT_EQ(m_window->graphTab()->shownInput().blockOfOp[move->first.index], move->second);
    EXPECT_EQ(scene().blockOfOp(move->first), move->second);
    EXPECT_LE(model().rowCount(), rowsBefore);

    QAction* undo = m_window->scheduleEditor()->undoAction();
    QAction* redo = m_window->scheduleEditor()->redoAction();
    EXPECT_EQ(undo->shortcut(), QKeySequence(QKeySequence::Undo));
    EXPECT_EQ(redo->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
    ASSERT_TRUE(undo->isEnabled());
    undo->trigger();
    EXPECT_EQ(schedule(), before);
    expectShown();
    EXPECT_EQ(model().rowCount(), rowsBefore);

    redo->trigger();
    EXPECT_EQ(schedule(), after);
    expectShown();
}

TEST_F(ScheduleWindowTest, DraggingAnOpWithTheMouseMovesIt) {
    if (!open("resnet_tiny.onnx", QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    const auto move = boundaryMove();
    ASSERT_TRUE(move);
    const auto path = aimDrag(*move, 0.3);
    ASSERT_TRUE(path);
    views::graph::GraphCanvas* canvas = view()->canvas();

    pressAndDrag(*path);
    EXPECT_TRUE(canvas->isDraggingOp());
    EXPECT_TRUE(path->target->isDropTarget());
    QTest::mouseRelease(canvas->viewport(), Qt::LeftButton, Qt::NoModifier, path->to);
    EXPECT_FALSE(canvas->isDraggingOp());
    EXPECT_EQ(document().blockOfOp(move->first), move->second);
    EXPECT_EQ(document().undoStack()->count(), 1);
}

TEST_F(ScheduleWindowTest, AnOpsContextMenuMovesItToANeighbour) {
    if (!open("resnet_tiny.onnx", QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    const auto move = boundaryMove();
    ASSERT_TRUE(move);
    const auto menu = m_window->scheduleEditor()->createOpMenu(move->first);
    ASSERT_NE(menu, nullptr);
    auto* moveTo = menu->findChild<QMenu*>(QStringLiteral("moveToMenu"));
    ASSERT_NE(moveTo, nullptr);
    // One entry per neighbouring block, named by its id.
    const std::vector<int> neighbours = document().neighbourBlocks(move->first);
    ASSERT_EQ(moveTo->actions().size(), static_cast<qsizetype>(neighbours.size()));
    QAction* entry = nullptr;
    for (QAction* action : moveTo->actions())
        if (action->text().startsWith(QStringLiteral("B%1 ").arg(move->second)))
            entry = action;
    ASSERT_NE(entry, nullptr);
    entry->trigger();
    EXPECT_EQ(document().blockOfOp(move->first), move->second);

    // A block's menu sets its mp.
    const int block = schedule().blocks.front().id;
    const auto blockMenu = m_window->scheduleEditor()->createBlockMenu(block);
    ASSERT_NE(blockMenu, nullptr);
    auto* mp = blockMenu->findChild<QMenu*>(QStringLiteral("mpMenu"));
    ASSERT_NE(mp, nullptr);
    ASSERT_FALSE(mp->actions().isEmpty());
    EXPECT_EQ(mp->actions().front()->text(), QStringLiteral("1"));
    mp->actions().front()->trigger();
    EXPECT_EQ(schedule().findBlock(block)->mp, 1);
    EXPECT_EQ(document().undoStack()->count(), 2);
}

TEST_F(ScheduleWindowTest, ARefusedFuseSaysWhyAndChangesNothing) {
    if (!open("resnet_tiny.onnx", QStringLiteral("mncore2"), sch::Strategy::PerOp))
        FAIL() << "cannot open the committed sample";
    ASSERT_GE(schedule().blocks.size(), 3u);
    const sch::Schedule before = schedule();
    // conv -> bn -> relu: fusing conv and relu alone would not be convex.
    m_window->scheduleTable()->selectBlocks({before.blocks[0].id, before.blocks[2].id});
    QAction* fuse = m_window->scheduleEditor()->fuseAction();
    EXPECT_EQ(fuse->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_F));
    ASSERT_TRUE(fuse->isEnabled());
    fuse->trigger();
    EXPECT_EQ(schedule(), before);
    EXPECT_EQ(document().undoStack()->count(), 0);
    const QString message = m_window->statusBar()->currentMessage();
    EXPECT_TRUE(message.contains(QStringLiteral("refused")) &&
                message.contains(QStringLiteral("convex")))
        << message.toStdString();
    DiagnosticsPanel* diagnostics = m_window->diagnosticsPanel();
    EXPECT_GE(diagnostics->count(Severity::Error), 1);
    EXPECT_TRUE(m_window->findChild<QDockWidget*>(QStringLiteral("diagnosticsDock"))->isVisible());

    // An mp beyond the target from the check: refused, and the diagnostic leads to the block.
    const int block = before.blocks[1].id;
    EXPECT_TRUE(document().setMp(block, document().target()->maxMp() + 1).refused());
    EXPECT_EQ(schedule(), before);
    QTreeWidgetItem* row = nullptr;
    for (int i = 0; i < diagnostics->topLevelItemCount(); ++i)
        if (diagnostics->topLevelItem(i)
                ->text(DiagnosticsPanel::LocationColumn)
                .contains(QStringLiteral("block B%1").arg(block)))
            row = diagnostics->topLevelItem(i);
    ASSERT_NE(row, nullptr);
    emit diagnostics->itemClicked(row, DiagnosticsPanel::LocationColumn);
    EXPECT_EQ(m_window->scheduleTable()->currentBlock(), block);
}

TEST_F(ScheduleWindowTest, TableAndGraphShareTheSelection) {
    if (!open("transformer_block.onnx", QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    ASSERT_GE(schedule().blocks.size(), 2u);
    const sch::Block& second = schedule().blocks[1];

    // A row selects its block's cluster.
    m_window->scheduleTable()->selectBlock(second.id);
    EXPECT_EQ(view()->selectedBlocks(), std::vector<int>{second.id});

    // An op selects its block's row; Ctrl+click on an op of another block adds that row.
    const sch::Block& first = schedule().blocks[0];
    view()->selectOp(first.ops.back());
    EXPECT_EQ(m_window->scheduleTable()->selectedBlocks(), std::vector<int>{first.id});
    views::graph::NodeItem* other = scene().nodeForOp(second.ops.front());
    ASSERT_NE(other, nullptr);
    view()->canvas()->centerOn(other);
    QTest::mouseClick(view()->canvas()->viewport(), Qt::LeftButton, Qt::ControlModifier,
                      view()->canvas()->mapFromScene(other->sceneBox().center()));
    EXPECT_EQ(m_window->scheduleTable()->selectedBlocks(),
              (std::vector<int>{std::min(first.id, second.id), std::max(first.id, second.id)}));
    EXPECT_TRUE(m_window->scheduleEditor()->fuseAction()->isEnabled());
}

TEST_F(ScheduleWindowTest, KnobEditsInTheTableAreUndoable) {
    if (!open("resnet_tiny.onnx", QStringLiteral("mncore2")))
        FAIL() << "cannot open the committed sample";
    const sch::Schedule before = schedule();
    const int id = before.blocks[0].id;
    const QModelIndex mp =
        m_window->scheduleTable()->model()->index(0, ScheduleTableModel::MpColumn);
    m_window->scheduleTable()->model()->setData(mp, 1);
    // The request is queued past the editor's commit.
    ASSERT_TRUE(QTest::qWaitFor([&] { return schedule().findBlock(id)->mp == 1; }, 5000));
    ASSERT_TRUE(settle());
    EXPECT_EQ(model().index(0, ScheduleTableModel::MpColumn).data().toInt(), 1);
    EXPECT_TRUE(scene().clusterForBlock(id)->badgeText().contains(QStringLiteral("mp 1")));
    document().undoStack()->undo();
    EXPECT_EQ(schedule(), before);
}

TEST_F(ScheduleWindowTest, TheTargetSelectorMakesANewSchedule) {
    if (!open("mobilenet_tiny.onnx"))
        FAIL() << "cannot open the committed sample";
    auto* bar = m_window->findChild<ScheduleToolBar*>(QStringLiteral("scheduleToolBar"));
    QComboBox* box = bar->targetBox();
    const int index = box->findData(QStringLiteral("mlu100"));
    ASSERT_GE(index, 0);
    box->setCurrentIndex(index);
    emit box->activated(index);
    EXPECT_TRUE(document().isMaking());
    ASSERT_TRUE(settle());
    EXPECT_EQ(schedule().targetName, "mlu100");
    EXPECT_EQ(schedule().blocks.front().mp, 32);
    expectShown();
    EXPECT_TRUE(m_window->findChild<QLabel*>(QStringLiteral("scheduleTotals"))
                    ->text()
                    .startsWith(QStringLiteral("mlu100")));
    // Undo goes back to the host's schedule and the selector follows.
    document().undoStack()->undo();
    EXPECT_EQ(box->currentText(), QStringLiteral("host"));
}

} // namespace
} // namespace strata::gui
