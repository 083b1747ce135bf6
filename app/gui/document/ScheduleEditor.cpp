#include "document/ScheduleEditor.h"

#include "document/ScheduleDocument.h"
#include "schedule/Edits.h"
#include "views/graph/GraphScene.h"
#include "views/graph/GraphView.h"
#include "views/schedule/ScheduleTableModel.h"
#include "views/schedule/ScheduleTableView.h"
#include "views/schedule/TileText.h"

#include <QAction>
#include <QItemSelectionModel>
#include <QMenu>
#include <QUndoStack>
#include <QWidget>
#include <algorithm>

namespace strata::gui {

namespace {

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

// 1, 2, 4, ... up to `maxMp`, and `maxMp` itself: the mp values worth a menu entry.
std::vector<int> mpChoices(int maxMp) {
    std::vector<int> out;
    for (int mp = 1; mp < maxMp; mp *= 2)
        out.push_back(mp);
    out.push_back(std::max(1, maxMp));
    return out;
}

} // namespace

ScheduleEditor::ScheduleEditor(ScheduleDocument* document, Selection* selection,
                               views::graph::GraphView* graph,
                               views::schedule::ScheduleTableView* table,
                               views::schedule::ScheduleTableModel* model, QWidget* window)
    : QObject(window), m_document(document), m_selection(selection), m_graph(graph), m_table(table),
      m_model(model), m_window(window) {
    QUndoStack* stack = document->undoStack();
    m_undo = stack->createUndoAction(window, tr("&Undo"));
    m_undo->setObjectName(QStringLiteral("undoAction"));
    m_undo->setShortcut(QKeySequence::Undo);
    m_redo = stack->createRedoAction(window, tr("&Redo"));
    m_redo->setObjectName(QStringLiteral("redoAction"));
    // Both common redo keys, each once: QKeySequence::Redo repeats Ctrl+Shift+Z on some
    // platforms, and a key bound twice is an "ambiguous shortcut" that does nothing.
    m_redo->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});

    m_fuse = new QAction(tr("&Fuse Blocks"), window);
    m_fuse->setObjectName(QStringLiteral("fuseAction"));
    m_fuse->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F));
    m_fuse->setStatusTip(tr("Merge the selected blocks into one (select them with Ctrl+click)"));
    connect(m_fuse, &QAction::triggered, this, &ScheduleEditor::fuseSelection);

    m_split = new QAction(tr("&Split Block at Op"), window);
    m_split->setObjectName(QStringLiteral("splitAction"));
    m_split->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    m_split->setStatusTip(tr("Start a new block at the selected op"));
    connect(m_split, &QAction::triggered, this, &ScheduleEditor::splitAtSelection);
    for (QAction* action : {m_undo, m_redo, m_fuse, m_split})
        window->addAction(action);

    connect(m_graph, &views::graph::GraphView::selectionChanged, this,
            &ScheduleEditor::onGraphSelectionChanged);
    connect(m_selection, &Selection::changed, this, &ScheduleEditor::followSelection);
    connect(m_graph, &views::graph::GraphView::opDropRequested, this,
            [this](ir::OpId op, int block) { m_document->moveOp(op, block); });
    // While an op is dragged: a block it cannot move into shows a "no" with core's reason.
    m_graph->setDropCheck([this](ir::OpId op, int block) -> QString {
        const auto s = m_document->schedule();
        const auto g = m_document->graph();
        if (!s || !g || op.index >= g->ops.size())
            return {};
        const auto moved = schedule::moveOp(*s, *g, op, block);
        if (moved.ok())
            return {};
        if (moved.diagnostics().empty())
            return tr("%1 cannot move there").arg(fromStd(g->op(op).name));
        return tr("%1 cannot move to %2: %3")
            .arg(fromStd(g->op(op).name), fromStd(schedule::blockName(block)),
                 fromStd(moved.diagnostics().front().message));
    });
    connect(m_graph, &views::graph::GraphView::boundaryDragRequested, this,
            [this](ir::OpId producer, ir::OpId consumer, ir::OpId to) {
                m_document->moveBoundary(producer, consumer, to);
            });
    connect(m_graph, &views::graph::GraphView::opContextMenuRequested, this,
            &ScheduleEditor::showOpMenu);
    connect(m_graph, &views::graph::GraphView::blockContextMenuRequested, this,
            &ScheduleEditor::showBlockMenu);
    connect(m_document, &ScheduleDocument::snapshotChanged, this,
            &ScheduleEditor::onSnapshotChanged);
    // Queued: the request arrives while the table's editor commits, and the answer resets the
    // model.
    using Model = views::schedule::ScheduleTableModel;
    connect(m_model, &Model::mpEditRequested, m_document, &ScheduleDocument::setMp,
            Qt::QueuedConnection);
    connect(m_model, &Model::bufferingEditRequested, m_document, &ScheduleDocument::setBuffering,
            Qt::QueuedConnection);
    connect(
        m_model, &Model::tileEditRequested, this,
        [this](int block, const QString& text) {
            if (auto tile = views::schedule::parseTileSpec(text))
                m_document->setTile(block, *tile);
            else
                m_document->setTile(block, {}); // unreachable past the editor's validator
        },
        Qt::QueuedConnection);
    // The table's selection model is replaced with its model: connect once it exists.
    if (m_table->selectionModel())
        connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
                &ScheduleEditor::onTableSelectionChanged);
    updateActions();
}

std::vector<int> ScheduleEditor::selectedBlocks() const {
    return m_table->selectedBlocks();
}

QString ScheduleEditor::blockLabel(int id) const {
    const auto& snapshot = m_document->snapshot();
    const schedule::Schedule* s = m_document->schedule().get();
    const schedule::Block* block = s ? s->findBlock(id) : nullptr;
    if (!block || !snapshot.graph || block->ops.empty())
        return fromStd(schedule::blockName(id));
    const ir::Graph& g = *m_document->graph();
    if (block->ops.size() == 1)
        return tr("%1  %2").arg(fromStd(schedule::blockName(id)),
                                fromStd(g.op(block->ops[0]).name));
    return tr("%1  %2 \u2192 %3 (%4 ops)")
        .arg(fromStd(schedule::blockName(id)), fromStd(g.op(block->ops.front()).name),
             fromStd(g.op(block->ops.back()).name))
        .arg(block->ops.size());
}

void ScheduleEditor::fuseSelection() {
    m_document->fuse(selectedBlocks());
}

void ScheduleEditor::splitAtSelection() {
    const std::vector<ir::OpId> ops = m_graph->selectedOps();
    if (ops.size() != 1) {
        m_document->split(ir::OpId()); // says why
        return;
    }
    m_document->split(ops.front());
}

void ScheduleEditor::showBlock(int id) {
    m_selection->selectBlocks({id}, Selection::Origin::Other);
    // Scrolled to even when it was selected already.
    m_table->selectBlock(id);
    showInGraph(id, true);
    updateActions();
}

void ScheduleEditor::showInGraph(int id, bool select) {
    if (!m_graph->scene()->input().blocksAreChunks) {
        if (select)
            m_graph->selectBlock(id);
        else
            m_graph->centreOnBlock(id);
        return;
    }
    // The overview of a big graph draws chunks of ops, not blocks: show the chunk holding the
    // block's first op.
    const schedule::Schedule* s = m_document->schedule().get();
    if (const schedule::Block* block = s ? s->findBlock(id) : nullptr; block && !block->ops.empty())
        m_graph->selectOp(block->ops.front());
}

void ScheduleEditor::onGraphSelectionChanged() {
    // With the blocks of the selected ops as the document has them (the drawing may still show
    // the partition before an edit).
    m_selection->selectOps(m_graph->selectedOps(), Selection::Origin::Graph,
                           m_graph->selectedBlocks());
    updateActions();
}

void ScheduleEditor::onTableSelectionChanged() {
    const std::vector<int> rows = m_table->selectedBlocks();
    // One row holding every op selected: the ops stay selected (the row is their block's).
    const std::vector<ir::OpId>& ops = m_selection->ops();
    const bool inside =
        rows.size() == 1 && !ops.empty() && std::all_of(ops.begin(), ops.end(), [&](ir::OpId op) {
            return m_document->blockOfOp(op) == rows.front();
        });
    if (!inside)
        m_selection->selectBlocks(rows, Selection::Origin::Table);
    updateActions();
}

void ScheduleEditor::followSelection() {
    const Selection::Origin origin = m_selection->origin();
    if (origin != Selection::Origin::Graph) {
        if (const auto op = m_selection->singleOp()) {
            if (m_graph->selectedOps() != std::vector<ir::OpId>{*op})
                m_graph->selectOp(*op);
        } else if (m_selection->ops().empty() && m_selection->singleBlock() >= 0) {
            showInGraph(m_selection->singleBlock(), true);
        }
    }
    if (origin != Selection::Origin::Table && m_table->selectedBlocks() != m_selection->blocks())
        m_table->selectBlocks(m_selection->blocks());
    updateActions();
}

void ScheduleEditor::onSnapshotChanged() {
    // A reset table lost its selection; an edit may have moved the selected ops: the blocks of
    // the graph's selection again.
    m_selection->selectOps(m_graph->selectedOps(), Selection::Origin::Graph,
                           m_graph->selectedBlocks());
    m_table->selectBlocks(m_selection->blocks());
    updateActions();
}

void ScheduleEditor::updateActions() {
    const bool hasSchedule = m_document->schedule() != nullptr;
    m_fuse->setEnabled(hasSchedule && selectedBlocks().size() >= 2);
    m_split->setEnabled(hasSchedule && m_graph->selectedOps().size() == 1);
}

std::unique_ptr<QMenu> ScheduleEditor::createOpMenu(ir::OpId op) {
    const auto graph = m_document->graph();
    if (!graph || op.index >= graph->ops.size() || !m_document->schedule())
        return nullptr;
    auto menu = std::make_unique<QMenu>(m_window);
    menu->setObjectName(QStringLiteral("opContextMenu"));
    menu->addSection(fromStd(graph->op(op).name));
    const int own = m_document->blockOfOp(op);

    QMenu* move = menu->addMenu(tr("&Move to Block"));
    move->setObjectName(QStringLiteral("moveToMenu"));
    const std::vector<int> neighbours = m_document->neighbourBlocks(op);
    for (int block : neighbours)
        move->addAction(blockLabel(block), this,
                        [this, op, block] { m_document->moveOp(op, block); });
    move->setEnabled(!neighbours.empty());
    if (neighbours.empty())
        move->setTitle(tr("&Move to Block (no neighbouring block)"));

    QAction* split = menu->addAction(tr("&Split %1 Here").arg(fromStd(schedule::blockName(own))),
                                     this, [this, op] { m_document->split(op); });
    split->setObjectName(QStringLiteral("splitHere"));
    split->setShortcut(m_split->shortcut());
    const schedule::Block* block = m_document->schedule()->findBlock(own);
    split->setEnabled(block && block->ops.size() > 1 && block->ops.front() != op);
    if (m_fuse->isEnabled())
        menu->addAction(m_fuse);
    menu->addSeparator();
    if (own >= 0)
        addKnobMenus(*menu, own);
    return menu;
}

std::unique_ptr<QMenu> ScheduleEditor::createBlockMenu(int block) {
    if (!m_document->schedule() || !m_document->schedule()->findBlock(block))
        return nullptr;
    auto menu = std::make_unique<QMenu>(m_window);
    menu->setObjectName(QStringLiteral("blockContextMenu"));
    menu->addSection(blockLabel(block));
    if (m_fuse->isEnabled())
        menu->addAction(m_fuse);
    addKnobMenus(*menu, block);
    return menu;
}

void ScheduleEditor::showOpMenu(ir::OpId op, QPoint globalPos) {
    if (auto menu = createOpMenu(op))
        menu->exec(globalPos);
}

void ScheduleEditor::showBlockMenu(int block, QPoint globalPos) {
    if (auto menu = createBlockMenu(block))
        menu->exec(globalPos);
}

void ScheduleEditor::addKnobMenus(QMenu& menu, int id) {
    const schedule::Block* block = m_document->schedule()->findBlock(id);
    const auto target = m_document->snapshot().target;
    if (!block || !target)
        return;
    const QString name = fromStd(schedule::blockName(id));
    QMenu* mp = menu.addMenu(tr("MP of %1").arg(name));
    mp->setObjectName(QStringLiteral("mpMenu"));
    for (int value : mpChoices(target->maxMp())) {
        QAction* action = mp->addAction(QString::number(value), this,
                                        [this, id, value] { m_document->setMp(id, value); });
        action->setCheckable(true);
        action->setChecked(value == block->mp);
    }
    QMenu* buffering = menu.addMenu(tr("Buffering of %1").arg(name));
    for (int value : {1, 2}) {
        QAction* action =
            buffering->addAction(value == 1 ? tr("Single") : tr("Double"),
                                 [this, id, value] { m_document->setBuffering(id, value); });
        action->setCheckable(true);
        action->setChecked(value == block->buffering);
    }
    QAction* autoTile = menu.addAction(tr("Automatic Tile for %1").arg(name), this,
                                       [this, id] { m_document->setTile(id, {}); });
    autoTile->setEnabled(!block->tile.isAuto());
}

} // namespace strata::gui
