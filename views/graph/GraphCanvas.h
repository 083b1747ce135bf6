#pragma once
// The graph's viewport: zoom (wheel under the mouse, +/- keys, animated), pan (drag, arrow
// keys), fit-to-view (F), keyboard navigation along edges (Up/Down to a producer/consumer,
// Left/Right to a neighbour on the same rank), double-click to expand or collapse a block,
// Ctrl+click to select several nodes, drag an op onto another block's region to ask for it to
// move there, right-click for a context menu on an op or a block.

#include "ir/Graph.h"

#include <QGraphicsView>
#include <functional>
#include <optional>

class QVariantAnimation;

namespace strata::views::graph {

class GraphScene;
class NodeItem;

class GraphCanvas : public QGraphicsView {
    Q_OBJECT

  public:
    explicit GraphCanvas(GraphScene* scene, QWidget* parent = nullptr);

    static constexpr double kMinZoom = 0.02;
    static constexpr double kMaxZoom = 6.0;
    // Below this zoom the nodes' text is too small to read (11-12 px fonts under 7 px): the
    // first view and Fit never go lower on their own; the wheel and "-" still can.
    static constexpr double kMinReadableZoom = 0.6;

    GraphScene* graphScene() const { return m_scene; }
    double zoom() const;
    // Sets the zoom, keeping `anchor` (scene coordinates; default: the viewport's centre) where
    // it is on screen. Clamped to [kMinZoom, kMaxZoom].
    void setZoom(double zoom, std::optional<QPointF> anchor = std::nullopt);
    // Multiplies the zoom around the viewport's centre, animated when animations are on.
    void zoomBy(double factor);
    // Shows the whole graph, at most at 100 %. When the whole graph would be too small to read
    // (a long model), fits its width instead, at least at kMinReadableZoom, keeping the part
    // shown, and says so through statusMessage().
    void fitToView();
    // The first view of a new layout: the whole graph when that is readable, else its top
    // (where the inputs are) at a readable zoom, centred on the nodes of that first screen, or
    // from their left edge when they are wider than the viewport.
    void showStart();
    // Scrolls (animated when on) so that `node` is in the middle.
    void centreOnNode(const NodeItem* node);
    // Scrolls (animated when on) to `rect` at a readable zoom: centred when it fits, else
    // from its top-left corner.
    void centreOnRect(const QRectF& rect);
    // Selects `node` alone and centres on it.
    void selectNode(NodeItem* node);
    // Jumps to `zoom` with `centre` in the middle, without animation (keeps the view over a
    // new layout of the same graph).
    void restoreView(double zoom, QPointF centre);
    bool isDraggingOp() const { return m_drag.active; }

    // Asks whether `op` may move into `block`: empty when it may, else the reason it may not.
    // A block that refuses is drawn as a "no" while the op is dragged over it, the reason shows
    // in a tooltip and the status bar, and dropping there requests nothing. Without a check
    // every other block takes the drop (the owner then refuses with its reason).
    using DropCheck = std::function<QString(ir::OpId op, int block)>;
    void setDropCheck(DropCheck check) { m_dropCheck = std::move(check); }
    // While an op is dragged over a block that refuses it: why (empty otherwise).
    QString dropRefusal() const { return m_drag.refusal; }

    // Animations make zoom and centring glide; tests turn them off to check results at once.
    void setAnimated(bool animated) { m_animated = animated; }
    bool isAnimated() const { return m_animated; }

  signals:
    void zoomChanged(double zoom);
    void expandBlockRequested(int block);
    void collapseBlockRequested(int block);
    void searchRequested(); // "/" pressed
    // Something the user should read in the status bar (e.g. why Fit did not fit everything).
    void statusMessage(const QString& text);
    // An op was dragged from its block and dropped on `block`'s cluster or collapsed node.
    void opDropRequested(strata::ir::OpId op, int block);
    // A boundary handle on the edge producer -> consumer was dropped on op `to`.
    void boundaryDragRequested(strata::ir::OpId producer, strata::ir::OpId consumer,
                               strata::ir::OpId to);
    void opContextMenuRequested(strata::ir::OpId op, QPoint globalPos);
    void blockContextMenuRequested(int block, QPoint globalPos);

  protected:
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    void animateTo(double zoom, QPointF centre);
    void applyView(double zoom, QPointF centre);
    void updateSceneRect();
    bool navigate(int key);
    NodeItem* opNodeAt(QPoint viewportPos) const;
    // The node being dragged, if the scene still shows it (a new layout replaces the items).
    NodeItem* draggedNode() const;
    // Marks `block` (-1: none) as where the drag would drop, asking the drop check.
    void setDropBlock(int block, QPoint viewportPos);
    void endDrag();

    // An op node pressed with the left button; a drag once the mouse moved far enough.
    struct OpDrag {
        std::size_t node = 0;
        ir::OpId op;
        int fromBlock = -1;
        QPoint pressPos; // viewport
        QPointF itemPos; // the node's position before the drag
        bool pressed = false;
        bool active = false;
        int dropBlock = -1; // the block under the mouse, other than fromBlock
        QString refusal;    // why dropBlock refuses the op, or empty
    };
    OpDrag m_drag;
    // A boundary handle being dragged: the edge it sits on.
    struct BoundaryDrag {
        bool pressed = false;
        ir::OpId producer;
        ir::OpId consumer;
    };
    BoundaryDrag m_boundary;

    GraphScene* m_scene;
    DropCheck m_dropCheck;
    QVariantAnimation* m_animation = nullptr;
    double m_targetZoom = 1; // where the running animation goes
    QPointF m_targetCentre;
    bool m_animated = true;
};

} // namespace strata::views::graph
