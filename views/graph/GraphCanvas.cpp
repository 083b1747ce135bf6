#include "views/graph/GraphCanvas.h"

#include "views/graph/GraphItems.h"
#include "views/graph/GraphScene.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QVariantAnimation>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <limits>

namespace strata::views::graph {

namespace {

constexpr int kAnimationMs = 180;
constexpr int kPanStep = 80;          // pixels per arrow key press
constexpr double kReadableZoom = 0.9; // where the first view and search jumps go
constexpr double kViewMargin = 20;    // scene units kept free around a framed part

} // namespace

GraphCanvas::GraphCanvas(GraphScene* scene, QWidget* parent)
    : QGraphicsView(scene, parent), m_scene(scene) {
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing |
                   QPainter::SmoothPixmapTransform);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::NoAnchor); // zoom anchors itself (setZoom)
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setOptimizationFlag(QGraphicsView::DontAdjustForAntialiasing); // items pad their bounds
    setBackgroundBrush(scene->graphStyle().canvas);
    setFrameShape(QFrame::NoFrame);
    // The scene rect reaches half a viewport past the graph (updateSceneRect), so scroll bars
    // would always show; panning is by drag, arrows and the wheel's zoom anchor instead.
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFocusPolicy(Qt::StrongFocus);
    setAlignment(Qt::AlignCenter);

    m_animation = new QVariantAnimation(this);
    m_animation->setDuration(kAnimationMs);
    m_animation->setEasingCurve(QEasingCurve::OutCubic);
}

double GraphCanvas::zoom() const {
    return transform().m11();
}

void GraphCanvas::updateSceneRect() {
    // Half a viewport of room around the graph at the current zoom: the graph can be panned
    // to any edge, and a zoom can keep any point under the mouse even when the whole graph is
    // smaller than the viewport (which would otherwise pin it to the centre).
    const QRectF graph = m_scene->graphRect();
    if (graph.isEmpty()) {
        setSceneRect(QRectF());
        return;
    }
    const double z = std::max(zoom(), kMinZoom);
    const double dx = viewport()->width() / z / 2;
    const double dy = viewport()->height() / z / 2;
    setSceneRect(graph.adjusted(-dx, -dy, dx, dy));
}

void GraphCanvas::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    updateSceneRect();
}

void GraphCanvas::applyView(double zoom, QPointF centre) {
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    const bool changed = std::abs(zoom - this->zoom()) > 1e-9;
    setTransform(QTransform::fromScale(zoom, zoom));
    updateSceneRect();
    centerOn(centre);
    if (changed)
        emit zoomChanged(zoom);
}

void GraphCanvas::setZoom(double zoom, std::optional<QPointF> anchor) {
    m_animation->stop();
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    const QPoint viewportCentre = viewport()->rect().center();
    const QPointF anchorScene = anchor.value_or(mapToScene(viewportCentre));
    const QPointF anchorBefore = mapFromScene(anchorScene);
    const bool changed = std::abs(zoom - this->zoom()) > 1e-9;
    setTransform(QTransform::fromScale(zoom, zoom));
    updateSceneRect();
    // Scroll so the anchor is back under the same viewport pixel.
    const QPointF anchorAfter = mapFromScene(anchorScene);
    const QPointF shift = anchorAfter - anchorBefore;
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() + qRound(shift.x()));
    verticalScrollBar()->setValue(verticalScrollBar()->value() + qRound(shift.y()));
    if (changed)
        emit zoomChanged(zoom);
}

void GraphCanvas::animateTo(double zoom, QPointF centre) {
    zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
    m_animation->stop();
    m_targetZoom = zoom;
    m_targetCentre = centre;
    if (!m_animated || !isVisible()) {
        applyView(zoom, centre);
        return;
    }
    const double fromZoom = this->zoom();
    const QPointF fromCentre = mapToScene(viewport()->rect().center());
    m_animation->disconnect(this);
    connect(m_animation, &QVariantAnimation::valueChanged, this,
            [this, fromZoom, fromCentre, zoom, centre](const QVariant& value) {
                const double t = value.toDouble();
                // Zoom moves geometrically, so zooming in and out feel alike.
                const double z = fromZoom * std::pow(zoom / fromZoom, t);
                applyView(z, fromCentre + (centre - fromCentre) * t);
            });
    m_animation->setStartValue(0.0);
    m_animation->setEndValue(1.0);
    m_animation->start();
}

void GraphCanvas::zoomBy(double factor) {
    // Presses during an animation compound on where it is going, not on where it is.
    if (m_animation->state() == QAbstractAnimation::Running) {
        animateTo(m_targetZoom * factor, m_targetCentre);
        return;
    }
    animateTo(zoom() * factor, mapToScene(viewport()->rect().center()));
}

void GraphCanvas::fitToView() {
    const QRectF rect = m_scene->graphRect();
    if (rect.isEmpty())
        return;
    const QSizeF size = viewport()->size();
    const double fitAll = std::min(size.width() / rect.width(), size.height() / rect.height());
    if (fitAll >= kMinReadableZoom) {
        animateTo(std::min(fitAll, 1.0), rect.center());
        return;
    }
    // The whole graph would be a hairline: fit its width (readable at least) and keep showing
    // the part around the current centre, clamped so the view stays on the graph.
    const double fitWidth = size.width() / rect.width();
    const double z = std::clamp(fitWidth, kMinReadableZoom, 1.0);
    const QPointF here = m_animation->state() == QAbstractAnimation::Running
                             ? m_targetCentre
                             : mapToScene(viewport()->rect().center());
    const QSizeF visible = size / z;
    auto clampInto = [](double value, double low, double high) {
        return low <= high ? std::clamp(value, low, high) : (low + high) / 2;
    };
    const QPointF centre(
        clampInto(here.x(), rect.left() + visible.width() / 2, rect.right() - visible.width() / 2),
        clampInto(here.y(), rect.top() + visible.height() / 2,
                  rect.bottom() - visible.height() / 2));
    animateTo(z, centre);
    const int allPercent = std::max(1, qRound(fitAll * 100));
    const int percent = qRound(z * 100);
    emit statusMessage(
        fitWidth >= kMinReadableZoom
            ? tr("The whole graph would be too small to read at %1 %: fitted its width at %2 %; "
                 "pan or zoom out to see more")
                  .arg(allPercent)
                  .arg(percent)
            : tr("The whole graph would be too small to read at %1 %: showing it at %2 %, the "
                 "smallest readable zoom; pan or zoom out to see more")
                  .arg(allPercent)
                  .arg(percent));
}

void GraphCanvas::showStart() {
    m_animation->stop();
    const QRectF rect = m_scene->graphRect();
    if (rect.isEmpty())
        return;
    const QSizeF size = viewport()->size();
    const double fit = std::min(size.width() / rect.width(), size.height() / rect.height());
    if (fit >= kMinReadableZoom) {
        applyView(std::min(fit, 1.0), rect.center());
        return;
    }
    // Too big to read whole: start at the top (where the inputs are), framing the nodes of that
    // first screen: centred when they fit across, else from their left edge.
    const double zoom = kReadableZoom;
    const QSizeF visible = size / zoom;
    const double firstScreenBottom = rect.top() + visible.height();
    QRectF top;
    for (std::size_t i = 0; i < m_scene->nodeCount(); ++i) {
        const QRectF box = m_scene->node(i)->sceneBox();
        if (box.top() < firstScreenBottom)
            top = top.isNull() ? box : top.united(box);
    }
    if (top.isNull())
        top = rect;
    const double x = top.width() + 2 * kViewMargin <= visible.width()
                         ? top.center().x()
                         : top.left() - kViewMargin + visible.width() / 2;
    applyView(zoom, QPointF(x, rect.top() + visible.height() / 2));
}

void GraphCanvas::centreOnNode(const NodeItem* node) {
    if (!node)
        return;
    // A jump into a zoomed-out view also zooms in, so the node can be read.
    const double target = zoom() < kMinReadableZoom ? kReadableZoom : zoom();
    animateTo(target, node->sceneBox().center());
}

void GraphCanvas::centreOnRect(const QRectF& rect) {
    // Keep a readable zoom; a rect too big for the viewport shows from its top-left corner
    // (where a block's first ops and its badge are).
    const double z = zoom() < kMinReadableZoom ? kReadableZoom : zoom();
    const QSizeF visible = QSizeF(viewport()->size()) / z;
    QPointF centre = rect.center();
    if (rect.width() + 2 * kViewMargin > visible.width())
        centre.setX(rect.left() - kViewMargin + visible.width() / 2);
    if (rect.height() + 2 * kViewMargin > visible.height())
        centre.setY(rect.top() - kViewMargin + visible.height() / 2);
    animateTo(z, centre);
}

void GraphCanvas::selectNode(NodeItem* node) {
    if (!node)
        return;
    m_scene->clearSelection();
    node->setSelected(true);
    centreOnNode(node);
}

void GraphCanvas::restoreView(double zoom, QPointF centre) {
    m_animation->stop();
    applyView(zoom, centre);
}

void GraphCanvas::wheelEvent(QWheelEvent* event) {
    // A wheel notch (120) zooms by about 15 %; touchpads send smaller steps, smoothly.
    const QPoint delta = event->angleDelta();
    const int steps = delta.y() != 0 ? delta.y() : delta.x();
    if (steps == 0) {
        event->ignore();
        return;
    }
    const double factor = std::pow(2.0, steps / 600.0);
    setZoom(zoom() * factor, mapToScene(event->position().toPoint()));
    event->accept();
}

bool GraphCanvas::navigate(int key) {
    NodeItem* current = m_scene->selectedNode();
    if (!current)
        return false;
    const QPointF here = current->sceneBox().center();
    std::vector<std::size_t> candidates;
    if (key == Qt::Key_Up)
        candidates = m_scene->predecessors(current->nodeIndex());
    else if (key == Qt::Key_Down)
        candidates = m_scene->successors(current->nodeIndex());
    else {
        // Neighbours on the same rank: boxes that span this node's vertical centre.
        for (std::size_t i = 0; i < m_scene->nodeCount(); ++i) {
            const QRectF box = m_scene->node(i)->sceneBox();
            if (i == current->nodeIndex() || box.top() > here.y() || box.bottom() < here.y())
                continue;
            if ((key == Qt::Key_Left) == (box.center().x() < here.x()))
                candidates.push_back(i);
        }
    }
    // The nearest candidate horizontally: the one the eye expects.
    NodeItem* best = nullptr;
    double bestDistance = std::numeric_limits<double>::max();
    for (std::size_t i : candidates) {
        NodeItem* node = m_scene->node(i);
        const double distance = std::abs(node->sceneBox().center().x() - here.x());
        if (distance < bestDistance) {
            best = node;
            bestDistance = distance;
        }
    }
    if (!best)
        return true; // at the graph's edge: stay, but do not pan either
    selectNode(best);
    return true;
}

void GraphCanvas::keyPressEvent(QKeyEvent* event) {
    const int key = event->key();
    switch (key) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.25);
        return;
    case Qt::Key_Minus:
    case Qt::Key_Underscore:
        zoomBy(0.8);
        return;
    case Qt::Key_0:
        animateTo(1.0, mapToScene(viewport()->rect().center()));
        return;
    case Qt::Key_F:
        if (event->modifiers() == Qt::NoModifier) {
            fitToView();
            return;
        }
        break;
    case Qt::Key_Slash:
        emit searchRequested();
        return;
    case Qt::Key_Escape:
        m_scene->clearSelection();
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (NodeItem* node = m_scene->selectedNode();
            node && node->ref().kind == layout::NodeKind::Block) {
            emit expandBlockRequested(static_cast<int>(node->ref().id));
            return;
        }
        break;
    case Qt::Key_Up:
    case Qt::Key_Down:
    case Qt::Key_Left:
    case Qt::Key_Right:
        if (event->modifiers() == Qt::NoModifier && navigate(key))
            return;
        {
            QScrollBar* bar = (key == Qt::Key_Up || key == Qt::Key_Down) ? verticalScrollBar()
                                                                         : horizontalScrollBar();
            const int sign = (key == Qt::Key_Up || key == Qt::Key_Left) ? -1 : 1;
            bar->setValue(bar->value() + sign * kPanStep);
        }
        return;
    default:
        break;
    }
    QGraphicsView::keyPressEvent(event);
}

void GraphCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
    for (QGraphicsItem* item : items(event->position().toPoint())) {
        if (auto* node = qgraphicsitem_cast<NodeItem*>(item)) {
            if (node->ref().kind == layout::NodeKind::Block) {
                emit expandBlockRequested(static_cast<int>(node->ref().id));
                event->accept();
                return;
            }
            break;
        }
        if (auto* cluster = qgraphicsitem_cast<ClusterItem*>(item)) {
            emit collapseBlockRequested(cluster->block());
            event->accept();
            return;
        }
    }
    QGraphicsView::mouseDoubleClickEvent(event);
}

NodeItem* GraphCanvas::opNodeAt(QPoint viewportPos) const {
    for (QGraphicsItem* item : items(viewportPos)) {
        if (auto* node = qgraphicsitem_cast<NodeItem*>(item))
            return node->ref().kind == layout::NodeKind::Op ? node : nullptr;
    }
    return nullptr;
}

NodeItem* GraphCanvas::draggedNode() const {
    if (m_drag.node >= m_scene->nodeCount())
        return nullptr;
    NodeItem* node = m_scene->node(m_drag.node);
    return node->ref() == layout::NodeRef::op(m_drag.op) ? node : nullptr;
}

void GraphCanvas::setDropBlock(int block, QPoint viewportPos) {
    if (block == m_drag.dropBlock)
        return;
    auto mark = [this](int b, DropState state) {
        if (b < 0)
            return;
        if (ClusterItem* cluster = m_scene->clusterForBlock(b))
            cluster->setDropState(state);
        if (NodeItem* node = m_scene->nodeForBlock(b))
            node->setDropState(state);
    };
    mark(m_drag.dropBlock, DropState::None);
    m_drag.dropBlock = block;
    m_drag.refusal = block >= 0 && m_dropCheck ? m_dropCheck(m_drag.op, block) : QString();
    const bool refused = !m_drag.refusal.isEmpty();
    mark(block, refused ? DropState::Refused : DropState::Accepted);
    if (refused) {
        viewport()->setCursor(Qt::ForbiddenCursor);
        QToolTip::showText(viewport()->mapToGlobal(viewportPos), m_drag.refusal, viewport());
        emit statusMessage(m_drag.refusal);
    } else {
        if (m_drag.active)
            viewport()->setCursor(Qt::ClosedHandCursor);
        QToolTip::hideText();
    }
}

void GraphCanvas::endDrag() {
    setDropBlock(-1, {});
    if (NodeItem* node = draggedNode()) {
        node->setPos(m_drag.itemPos);
        node->setDragged(false);
    }
    viewport()->unsetCursor();
    m_drag = {};
}

void GraphCanvas::mousePressEvent(QMouseEvent* event) {
    if (m_drag.active)
        endDrag();
    m_drag = {};
    m_boundary = {};
    if (event->button() == Qt::LeftButton && event->modifiers() == Qt::NoModifier) {
        for (QGraphicsItem* item : items(event->position().toPoint()))
            if (auto* handle = qgraphicsitem_cast<BoundaryHandleItem*>(item)) {
                m_boundary = {true, handle->producer(), handle->consumer()};
                viewport()->setCursor(Qt::SizeVerCursor);
                event->accept();
                return; // no panning while a boundary is dragged
            }
        if (NodeItem* node = opNodeAt(event->position().toPoint())) {
            const ir::OpId op(node->ref().id);
            // Only ops in a schedule block can move to another one.
            if (m_scene->blockOfOp(op) >= 0) {
                m_drag.node = node->nodeIndex();
                m_drag.op = op;
                m_drag.fromBlock = m_scene->blockOfOp(op);
                m_drag.pressPos = event->position().toPoint();
                m_drag.itemPos = node->pos();
                m_drag.pressed = true;
            }
        }
    }
    QGraphicsView::mousePressEvent(event);
}

void GraphCanvas::mouseMoveEvent(QMouseEvent* event) {
    if (m_boundary.pressed) {
        event->accept();
        return;
    }
    if (m_drag.pressed && (event->buttons() & Qt::LeftButton)) {
        const QPoint pos = event->position().toPoint();
        NodeItem* node = draggedNode();
        if (!node) {
            m_drag = {}; // the layout changed under the mouse
        } else {
            if (!m_drag.active &&
                (pos - m_drag.pressPos).manhattanLength() >= QApplication::startDragDistance()) {
                m_drag.active = true;
                node->setDragged(true);
                viewport()->setCursor(Qt::ClosedHandCursor);
            }
            if (m_drag.active) {
                const QPointF scenePos = mapToScene(pos);
                node->setPos(m_drag.itemPos + scenePos - mapToScene(m_drag.pressPos));
                const int block = m_scene->blockAt(scenePos);
                setDropBlock(block == m_drag.fromBlock ? -1 : block, pos);
                event->accept();
                return;
            }
        }
    }
    QGraphicsView::mouseMoveEvent(event);
}

void GraphCanvas::mouseReleaseEvent(QMouseEvent* event) {
    if (m_boundary.pressed && event->button() == Qt::LeftButton) {
        const BoundaryDrag drag = m_boundary;
        m_boundary = {};
        viewport()->unsetCursor();
        event->accept();
        if (NodeItem* node = opNodeAt(event->position().toPoint()))
            emit boundaryDragRequested(drag.producer, drag.consumer, ir::OpId(node->ref().id));
        return;
    }
    if (m_drag.active && event->button() == Qt::LeftButton) {
        const ir::OpId op = m_drag.op;
        const int block = m_drag.dropBlock;
        const QString refusal = m_drag.refusal;
        endDrag();
        QGraphicsView::mouseReleaseEvent(event); // lets the scene release its mouse grab
        if (!refusal.isEmpty())
            emit statusMessage(refusal); // the op goes back; say why once more
        else if (block >= 0)
            emit opDropRequested(op, block);
        return;
    }
    if (event->button() == Qt::LeftButton)
        m_drag = {};
    QGraphicsView::mouseReleaseEvent(event);
}

void GraphCanvas::contextMenuEvent(QContextMenuEvent* event) {
    const QPoint pos = event->pos();
    for (QGraphicsItem* item : items(pos)) {
        if (auto* node = qgraphicsitem_cast<NodeItem*>(item)) {
            if (node->ref().kind == layout::NodeKind::Op) {
                // The menu acts on what was clicked: make it the selection unless it is in it.
                if (!node->isSelected()) {
                    m_scene->clearSelection();
                    node->setSelected(true);
                }
                emit opContextMenuRequested(ir::OpId(node->ref().id), event->globalPos());
                event->accept();
                return;
            }
            if (node->ref().kind == layout::NodeKind::Block && !m_scene->input().blocksAreChunks) {
                emit blockContextMenuRequested(static_cast<int>(node->ref().id),
                                               event->globalPos());
                event->accept();
                return;
            }
            break;
        }
    }
    if (const int block = m_scene->blockAt(mapToScene(pos)); block >= 0) {
        emit blockContextMenuRequested(block, event->globalPos());
        event->accept();
        return;
    }
    QGraphicsView::contextMenuEvent(event);
}

} // namespace strata::views::graph
