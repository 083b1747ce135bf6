#include "views/graph/GraphView.h"

#include "views/graph/GraphCanvas.h"
#include "views/graph/GraphItems.h"
#include "views/graph/GraphScene.h"
#include "views/graph/HeatLegend.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace strata::views::graph {

namespace {

QToolButton* toolButton(const QString& text, const QString& tip, const char* name) {
    auto* button = new QToolButton;
    button->setText(text);
    button->setToolTip(tip);
    button->setAutoRaise(true);
    button->setObjectName(QLatin1String(name));
    button->setFocusPolicy(Qt::NoFocus);
    return button;
}

} // namespace

GraphView::GraphView(QWidget* parent) : QWidget(parent) {
    m_scene = new GraphScene(this);
    m_scene->setObjectName(QStringLiteral("graphScene"));
    m_canvas = new GraphCanvas(m_scene);
    m_canvas->setObjectName(QStringLiteral("graphCanvas"));

    m_stack = new QStackedWidget;
    m_stack->setObjectName(QStringLiteral("graphStack"));
    m_stack->addWidget(createMessagePage());
    m_stack->addWidget(m_canvas);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(createToolBar());
    layout->addWidget(m_stack, 1);

    // A note over the canvas's top-right corner while a new layout of the shown graph runs.
    m_busyNote = new QLabel(m_canvas);
    m_busyNote->setObjectName(QStringLiteral("graphBusyNote"));
    m_busyNote->setStyleSheet(QStringLiteral(
        "QLabel { background: rgba(32, 36, 42, 200); color: white; border-radius: 6px; "
        "padding: 5px 10px; }"));
    m_busyNote->hide();

    m_heatLegend = new HeatLegend(m_canvas);
    m_heatLegend->setObjectName(QStringLiteral("graphHeatLegend"));
    m_heatLegend->hide();

    connect(m_scene, &QGraphicsScene::selectionChanged, this, &GraphView::onSelectionChanged);
    connect(m_canvas, &GraphCanvas::zoomChanged, this, &GraphView::updateZoomLabel);
    connect(m_canvas, &GraphCanvas::expandBlockRequested, this, &GraphView::expandBlockRequested);
    connect(m_canvas, &GraphCanvas::collapseBlockRequested, this,
            &GraphView::collapseBlockRequested);
    connect(m_canvas, &GraphCanvas::opDropRequested, this, &GraphView::opDropRequested);
    connect(m_canvas, &GraphCanvas::boundaryDragRequested, this, &GraphView::boundaryDragRequested);
    connect(m_canvas, &GraphCanvas::opContextMenuRequested, this,
            &GraphView::opContextMenuRequested);
    connect(m_canvas, &GraphCanvas::blockContextMenuRequested, this,
            &GraphView::blockContextMenuRequested);
    connect(m_canvas, &GraphCanvas::statusMessage, this, &GraphView::statusMessage);
    connect(m_canvas, &GraphCanvas::searchRequested, this, [this] {
        m_search->setFocus(Qt::ShortcutFocusReason);
        m_search->selectAll();
    });
    showMessage(tr("No model"));
}

GraphView::~GraphView() = default;

QWidget* GraphView::createToolBar() {
    auto* bar = new QWidget;
    bar->setObjectName(QStringLiteral("graphToolBar"));
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(8, 5, 8, 5);
    row->setSpacing(4);

    m_search = new QLineEdit;
    m_search->setObjectName(QStringLiteral("graphSearch"));
    m_search->setPlaceholderText(tr("Search ops by name or type  ( / )"));
    m_search->setClearButtonEnabled(true);
    m_search->setMinimumWidth(260);
    m_search->setMaximumWidth(380);
    m_search->installEventFilter(this);
    connect(m_search, &QLineEdit::textChanged, this, &GraphView::updateSearch);
    connect(m_search, &QLineEdit::returnPressed, this, &GraphView::findNext);

    auto* previous = toolButton(QStringLiteral("\u25B2"), tr("Previous match (Shift+Enter)"),
                                "graphFindPrevious");
    auto* next = toolButton(QStringLiteral("\u25BC"), tr("Next match (Enter)"), "graphFindNext");
    connect(previous, &QToolButton::clicked, this, &GraphView::findPrevious);
    connect(next, &QToolButton::clicked, this, &GraphView::findNext);

    m_matchLabel = new QLabel;
    m_matchLabel->setObjectName(QStringLiteral("graphMatchCount"));
    m_matchLabel->setMinimumWidth(90);

    m_sizeLabel = new QLabel;
    m_sizeLabel->setObjectName(QStringLiteral("graphSize"));
    QPalette dim = m_sizeLabel->palette();
    dim.setColor(QPalette::WindowText, dim.color(QPalette::PlaceholderText));
    m_sizeLabel->setPalette(dim);
    m_matchLabel->setPalette(dim);

    auto* zoomOut = toolButton(QStringLiteral("\u2212"), tr("Zoom out (-)"), "graphZoomOut");
    auto* zoomIn = toolButton(QStringLiteral("+"), tr("Zoom in (+)"), "graphZoomIn");
    auto* fit = toolButton(tr("Fit"), tr("Fit the graph to the view (F)"), "graphFit");
    connect(zoomOut, &QToolButton::clicked, this, &GraphView::zoomOut);
    connect(zoomIn, &QToolButton::clicked, this, &GraphView::zoomIn);
    connect(fit, &QToolButton::clicked, this, &GraphView::fitToView);
    m_zoomLabel = new QLabel;
    m_zoomLabel->setObjectName(QStringLiteral("graphZoom"));
    m_zoomLabel->setAlignment(Qt::AlignCenter);
    m_zoomLabel->setMinimumWidth(48);
    updateZoomLabel(1.0);

    row->addWidget(m_search);
    row->addWidget(previous);
    row->addWidget(next);
    row->addWidget(m_matchLabel);
    row->addStretch(1);
    row->addWidget(m_sizeLabel);
    row->addSpacing(12);
    m_heatCombo = new QComboBox;
    m_heatCombo->setObjectName(QStringLiteral("graphHeatMode"));
    m_heatCombo->setToolTip(tr("Colour the blocks by a figure (heat overlay)"));
    for (HeatMode mode :
         {HeatMode::Off, HeatMode::PredictedTime, HeatMode::DramBytes, HeatMode::PredictionError})
        m_heatCombo->addItem(heatModeName(mode), static_cast<int>(mode));
    setHeatModeAvailable(HeatMode::PredictionError, false,
                         tr("Needs a measured run of this schedule to compare with"));
    connect(m_heatCombo, &QComboBox::currentIndexChanged, this, [this] {
        const HeatMode mode = heatMode();
        if (mode == HeatMode::Off) {
            m_scene->setHeat({});
            m_heatLegend->hide();
        }
        emit heatModeChanged(mode);
    });
    row->addWidget(m_heatCombo);
    row->addSpacing(12);
    row->addWidget(zoomOut);
    row->addWidget(m_zoomLabel);
    row->addWidget(zoomIn);
    row->addWidget(fit);
    return bar;
}

QWidget* GraphView::createMessagePage() {
    auto* page = new QWidget;
    page->setObjectName(QStringLiteral("graphMessagePage"));
    page->setAutoFillBackground(true);
    auto* layout = new QVBoxLayout(page);
    layout->addStretch(1);
    m_message = new QLabel;
    m_message->setObjectName(QStringLiteral("graphMessage"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont font = m_message->font();
    font.setPointSizeF(font.pointSizeF() * 1.25);
    m_message->setFont(font);
    QPalette dim = m_message->palette();
    dim.setColor(QPalette::WindowText, dim.color(QPalette::PlaceholderText));
    m_message->setPalette(dim);
    layout->addWidget(m_message);
    m_messageBusy = new QProgressBar;
    m_messageBusy->setObjectName(QStringLiteral("graphMessageBusy"));
    m_messageBusy->setRange(0, 0);
    m_messageBusy->setTextVisible(false);
    m_messageBusy->setFixedWidth(220);
    m_messageBusy->setMaximumHeight(6);
    auto* busyRow = new QHBoxLayout;
    busyRow->addStretch(1);
    busyRow->addWidget(m_messageBusy);
    busyRow->addStretch(1);
    layout->addLayout(busyRow);
    layout->addStretch(1);
    return page;
}

void GraphView::showGraphLayout(std::shared_ptr<const ir::Graph> graph,
                                std::shared_ptr<const layout::GraphLayout> layout,
                                layout::LayoutInput input, bool keepView) {
    const std::optional<ir::OpId> keep = m_lastOp;
    keepView = keepView && isShowingGraph();
    const double zoom = m_canvas->zoom();
    const QPointF centre = m_canvas->mapToScene(m_canvas->viewport()->rect().center());
    m_lastOp.reset();
    m_lastBlock.reset();
    const std::size_t ops = graph ? graph->ops.size() : 0;
    m_scene->showLayout(std::move(graph), std::move(layout), std::move(input));
    m_stack->setCurrentWidget(m_canvas);
    setBusy({});
    const std::size_t collapsed = m_scene->input().collapsedBlocks.size();
    QString size = ops == 1 ? tr("1 op") : tr("%1 ops").arg(ops);
    if (collapsed > 0) {
        const bool chunks = m_scene->input().blocksAreChunks;
        size +=
            QStringLiteral(" \u00b7 ") +
            (collapsed == 1
                 ? (chunks ? tr("1 chunk collapsed") : tr("1 block collapsed"))
                 : (chunks ? tr("%1 chunks collapsed") : tr("%1 blocks collapsed")).arg(collapsed));
    }
    m_sizeLabel->setText(size);
    updateSearch();
    if (keepView)
        m_canvas->restoreView(zoom, centre);
    else
        m_canvas->showStart();
    updateZoomLabel(m_canvas->zoom());
    if (keep) {
        // Announced already: select it again without a second opSelected.
        if (NodeItem* node = m_scene->nodeForOp(*keep);
            node && node->ref().kind == layout::NodeKind::Op) {
            m_lastOp = keep;
            node->setSelected(true);
            m_canvas->centreOnNode(node);
        }
    }
}

void GraphView::showMessage(const QString& text, bool busy) {
    m_scene->clearLayout();
    m_message->setText(text);
    m_messageBusy->setVisible(busy);
    m_stack->setCurrentIndex(0);
    m_sizeLabel->clear();
    m_matches.clear();
    m_matchIndex = -1;
    m_matchLabel->clear();
    m_lastOp.reset();
    m_lastBlock.reset();
    setBusy({});
}

void GraphView::setBusy(const QString& text) {
    m_busyNote->setText(text);
    m_busyNote->setVisible(!text.isEmpty());
    placeBusyNote();
}

void GraphView::placeBusyNote() {
    m_busyNote->adjustSize();
    m_busyNote->move(m_canvas->width() - m_busyNote->width() - 12, 12);
    m_busyNote->raise();
}

void GraphView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    placeBusyNote();
    placeHeatLegend();
}

void GraphView::placeHeatLegend() {
    m_heatLegend->adjustSize();
    m_heatLegend->move(12, m_canvas->height() - m_heatLegend->height() - 12);
    m_heatLegend->raise();
}

HeatMode GraphView::heatMode() const {
    return static_cast<HeatMode>(m_heatCombo->currentData().toInt());
}

void GraphView::setHeatModeAvailable(HeatMode mode, bool available, const QString& reason) {
    const int index = m_heatCombo->findData(static_cast<int>(mode));
    auto* model = qobject_cast<QStandardItemModel*>(m_heatCombo->model());
    if (index < 0 || !model)
        return;
    QStandardItem* item = model->item(index);
    item->setEnabled(available);
    item->setToolTip(available ? QString() : reason);
    if (!available && m_heatCombo->currentIndex() == index)
        m_heatCombo->setCurrentIndex(0);
}

void GraphView::setHeat(const std::unordered_map<int, double>& values, QString (*format)(double),
                        const QString& note) {
    const HeatMode mode = heatMode();
    if (mode == HeatMode::Off) {
        m_scene->setHeat({});
        m_heatLegend->hide();
        return;
    }
    double high = 0;
    for (const auto& [block, value] : values)
        high = std::max(high, value);
    std::unordered_map<int, QColor> colors;
    for (const auto& [block, value] : values)
        colors[block] = heatColor(high > 0 ? value / high : 0);
    m_scene->setHeat(std::move(colors));
    if (values.empty())
        m_heatLegend->setNote(heatModeName(mode), note);
    else
        m_heatLegend->setScale(heatModeName(mode), format(0), format(high));
    m_heatLegend->show();
    placeHeatLegend();
}

void GraphView::clear() {
    showMessage(tr("No model"));
}

void GraphView::setBadges(std::vector<BlockBadge> badges) {
    m_scene->setBadges(std::move(badges));
}

layout::TextMetrics GraphView::textMetrics() const {
    return m_scene->graphStyle().textMetrics();
}

bool GraphView::isShowingGraph() const {
    return m_stack->currentWidget() == m_canvas && m_scene->hasLayout();
}

QString GraphView::message() const {
    return m_stack->currentWidget() == m_canvas ? QString() : m_message->text();
}

std::vector<ir::OpId> GraphView::selectedOps() const {
    std::vector<ir::OpId> ops;
    for (QGraphicsItem* item : m_scene->selectedItems())
        if (auto* node = qgraphicsitem_cast<NodeItem*>(item);
            node && node->ref().kind == layout::NodeKind::Op)
            ops.push_back(ir::OpId(node->ref().id));
    std::sort(ops.begin(), ops.end());
    return ops;
}

std::vector<int> GraphView::selectedBlocks() const {
    std::vector<int> blocks;
    if (m_scene->input().blocksAreChunks)
        return blocks;
    for (QGraphicsItem* item : m_scene->selectedItems()) {
        if (auto* node = qgraphicsitem_cast<NodeItem*>(item)) {
            if (node->ref().kind == layout::NodeKind::Block)
                blocks.push_back(static_cast<int>(node->ref().id));
        } else if (auto* cluster = qgraphicsitem_cast<ClusterItem*>(item)) {
            blocks.push_back(cluster->block());
        }
    }
    std::sort(blocks.begin(), blocks.end());
    return blocks;
}

std::optional<ir::OpId> GraphView::selectedOp() const {
    const NodeItem* node = m_scene->selectedNode();
    if (!node || node->ref().kind != layout::NodeKind::Op)
        return std::nullopt;
    return ir::OpId(node->ref().id);
}

void GraphView::setAnimated(bool animated) {
    m_canvas->setAnimated(animated);
}

void GraphView::setDropCheck(std::function<QString(ir::OpId op, int block)> check) {
    m_canvas->setDropCheck(std::move(check));
}

void GraphView::selectOp(ir::OpId op) {
    NodeItem* node = m_scene->nodeForOp(op);
    if (!node)
        return;
    if (node->isSelected() && m_scene->selectedItems().size() == 1) {
        m_canvas->centreOnNode(node);
        return;
    }
    m_canvas->selectNode(node);
}

void GraphView::centreOnBlock(int block) {
    if (NodeItem* node = m_scene->nodeForBlock(block)) {
        m_canvas->centreOnNode(node);
        return;
    }
    if (ClusterItem* cluster = m_scene->clusterForBlock(block))
        m_canvas->centreOnRect(cluster->sceneBoundingRect());
}

void GraphView::selectBlock(int block) {
    if (NodeItem* node = m_scene->nodeForBlock(block)) {
        m_canvas->selectNode(node);
        return;
    }
    ClusterItem* cluster = m_scene->clusterForBlock(block);
    if (!cluster)
        return;
    if (!cluster->isSelected() || m_scene->selectedItems().size() != 1) {
        m_scene->clearSelection();
        cluster->setSelected(true);
    }
    m_canvas->centreOnRect(cluster->box());
}

void GraphView::fitToView() {
    m_canvas->fitToView();
}

void GraphView::zoomIn() {
    m_canvas->zoomBy(1.25);
}

void GraphView::zoomOut() {
    m_canvas->zoomBy(0.8);
}

void GraphView::onSelectionChanged() {
    emitSingleSelection();
    emit selectionChanged();
}

void GraphView::emitSingleSelection() {
    const QList<QGraphicsItem*> selected = m_scene->selectedItems();
    if (selected.size() == 1) {
        if (auto* cluster = qgraphicsitem_cast<ClusterItem*>(selected.front())) {
            if (m_lastBlock != cluster->block()) {
                m_lastBlock = cluster->block();
                m_lastOp.reset();
                emit blockSelected(cluster->block());
            }
            return;
        }
    }
    const NodeItem* node = m_scene->selectedNode();
    if (!node)
        return;
    if (node->ref().kind == layout::NodeKind::Op) {
        const ir::OpId op(node->ref().id);
        if (m_lastOp != op) {
            m_lastOp = op;
            m_lastBlock.reset();
            emit opSelected(op);
        }
    } else if (node->ref().kind == layout::NodeKind::Block) {
        const int block = static_cast<int>(node->ref().id);
        if (m_lastBlock != block) {
            m_lastBlock = block;
            m_lastOp.reset();
            emit blockSelected(block);
        }
    }
}

void GraphView::updateSearch() {
    m_matches = m_scene->findOps(m_search->text());
    m_matchIndex = -1;
    m_scene->markSearchHits(m_matches);
    if (m_search->text().trimmed().isEmpty())
        m_matchLabel->clear();
    else if (m_matches.empty())
        m_matchLabel->setText(tr("No match"));
    else
        m_matchLabel->setText(m_matches.size() == 1 ? tr("1 match")
                                                    : tr("%1 matches").arg(m_matches.size()));
}

void GraphView::showMatch(int index) {
    if (m_matches.empty())
        return;
    const int count = static_cast<int>(m_matches.size());
    m_matchIndex = ((index % count) + count) % count;
    m_matchLabel->setText(tr("%1 of %2").arg(m_matchIndex + 1).arg(count));
    NodeItem* node = m_scene->nodeForOp(m_matches[static_cast<std::size_t>(m_matchIndex)]);
    if (node)
        m_canvas->selectNode(node);
}

void GraphView::findNext() {
    showMatch(m_matchIndex + 1);
}

void GraphView::findPrevious() {
    showMatch(m_matchIndex < 0 ? -1 : m_matchIndex - 1);
}

void GraphView::updateZoomLabel(double zoom) {
    m_zoomLabel->setText(QStringLiteral("%1 %").arg(qRound(zoom * 100)));
}

bool GraphView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_search && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if ((key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) &&
            key->modifiers() & Qt::ShiftModifier) {
            findPrevious();
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            m_search->clear();
            m_canvas->setFocus(Qt::OtherFocusReason);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace strata::views::graph
