#pragma once
// The graphics items of the graph view: nodes (ops, collapsed blocks, graph inputs and
// outputs), edges and block clusters. Everything they draw is prepared when they are made
// (texts elided, paths built); paint() only paints, and paints less when zoomed far out
// (level of detail) so that ten thousand items stay fluid.

#include "layout/GraphLayout.h"
#include "views/graph/GraphStyle.h"

#include <QGraphicsItem>
#include <QPainterPath>
#include <QPolygonF>
#include <QStaticText>
#include <optional>
#include <vector>

namespace strata::views::graph {

// Item types, so the scene can tell its items apart with qgraphicsitem_cast.
enum ItemType {
    NodeItemType = QGraphicsItem::UserType + 1,
    EdgeItemType,
    ClusterItemType,
    BoundaryHandleItemType,
};

// How a block answers an op dragged over it: takes it, or refuses it (drawn as a "no").
enum class DropState { None, Accepted, Refused };

// What a node shows; built by the scene from the graph.
struct NodeContent {
    layout::NodeKind kind = layout::NodeKind::Op;
    QString title;
    QString name;
    QString detail;
    QColor accent; // op class colour, or block colour for collapsed blocks
    QString badge; // collapsed blocks: the badge text, or empty
};

class NodeItem : public QGraphicsItem {
  public:
    // `style` must outlive the item (the scene owns both).
    NodeItem(std::size_t index, const layout::NodeBox& box, const NodeContent& content,
             const GraphStyle* style);

    // qgraphicsitem_cast needs Type: without it, every cast would succeed.
    enum { Type = NodeItemType };
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    // Collapsed blocks: where the badge pill is drawn (item coordinates).
    QRectF badgePill() const;

    std::size_t nodeIndex() const { return m_index; }
    layout::NodeRef ref() const { return m_ref; }
    const NodeContent& content() const { return m_content; }
    // The box in scene coordinates.
    QRectF sceneBox() const { return m_box.translated(pos()); }

    bool isSearchHit() const { return m_searchHit; }
    void setSearchHit(bool hit);
    // Collapsed blocks: the badge text, drawn as an alert when `invalid`.
    void setBadge(const QString& badge, bool invalid = false);
    // An op being dragged onto another block: drawn lifted, above everything else.
    void setDragged(bool dragged);
    // A collapsed block an op is dragged over: drawn emphasised, or as a "no" when refused.
    void setDropState(DropState state);
    DropState dropState() const { return m_dropState; }

  private:
    void preparePaths();
    void prepareTexts();
    void paintOp(QPainter* painter, bool detailed) const;
    void paintBlock(QPainter* painter, bool detailed) const;
    void paintTerminal(QPainter* painter, bool detailed) const;
    // Title line at `titleTop`, the name and detail lines from `bodyTop` down.
    void paintTexts(QPainter* painter, qreal titleTop, qreal bodyTop,
                    const QColor& titleColor) const;
    void paintOutline(QPainter* painter, const QPainterPath& outline) const;

    std::size_t m_index;
    layout::NodeRef m_ref;
    NodeContent m_content;
    const GraphStyle* m_style;
    QRectF m_box;           // local: (0, 0, width, height)
    QPainterPath m_outline; // the rounded box
    QPainterPath m_header;  // ops: the band behind the type
    QStaticText m_title;
    QStaticText m_name;
    QStaticText m_detail;
    QStaticText m_badge;
    bool m_searchHit = false;
    bool m_badgeInvalid = false;
    bool m_dragged = false;
    DropState m_dropState = DropState::None;
};

class EdgeItem : public QGraphicsItem {
  public:
    // `points`: the layout's cubic Bézier (3k+1 points), ending on the head's box.
    EdgeItem(std::size_t index, const std::vector<layout::Point>& points, const GraphStyle* style);

    // qgraphicsitem_cast needs Type: without it, every cast would succeed.
    enum { Type = EdgeItemType };
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    std::size_t edgeIndex() const { return m_index; }
    const QPainterPath& path() const { return m_path; }
    bool isHighlighted() const { return m_highlighted; }
    void setHighlighted(bool highlighted);
    // Where the line is not drawn: the badges it would cross when no spot along their row is
    // free of edges (scene coordinates; edges are not moved).
    const std::vector<QRectF>& gaps() const { return m_gaps; }
    void setGaps(std::vector<QRectF> gaps);

  protected:
    void hoverEnterEvent(QGraphicsSceneHoverEvent* event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;

  private:
    std::size_t m_index;
    const GraphStyle* m_style;
    QPainterPath m_path;
    QPolygonF m_arrow;
    QRectF m_bounds;
    std::vector<QRectF> m_gaps;
    QPainterPath m_clip;          // the bounds less the gaps; empty: no gaps
    mutable QPainterPath m_shape; // stroked on first hit test only
    bool m_highlighted = false;
    bool m_hovered = false;
};

class ClusterItem : public QGraphicsItem {
  public:
    ClusterItem(const layout::ClusterBox& cluster, const GraphStyle* style);

    // qgraphicsitem_cast needs Type: without it, every cast would succeed.
    enum { Type = ClusterItemType };
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    // Only the badge takes clicks and hovers: the rest of the region lets drags pan the view.
    QPainterPath shape() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    int block() const { return m_block; }
    // The block's region in scene coordinates (clusters are not moved).
    QRectF box() const { return m_box; }
    QString badgeText() const { return m_badgeText; }
    bool isBadgeInvalid() const { return m_invalid; }
    // The badge text, drawn as an alert when `invalid`.
    void setBadge(const QString& text, bool invalid = false);
    // The block an op is being dragged over: drawn emphasised when it takes the op, in the
    // alert colour with a "no" sign beside the badge when it refuses it.
    void setDropState(DropState state);
    DropState dropState() const { return m_dropState; }
    bool isDropTarget() const { return m_dropState == DropState::Accepted; }
    // The badge pill in scene coordinates (clusters are not moved).
    QRectF badgeRect() const { return m_badgeRect; }
    // The pill where the layout put it, at the start of the block's label row.
    QRectF badgeHome() const {
        return m_badgeRect.translated(m_badgeHomeLeft - m_badgeRect.left(), 0);
    }
    // Slides the pill along its row so that its left edge is at `left` (scene x).
    void moveBadge(qreal left);
    // Where the "no" sign of a refused drop is drawn, beside the badge.
    QRectF refusalSignRect() const;
    // The heat overlay's colour for the block, or none: the block's own colour.
    void setHeat(std::optional<QColor> color);
    std::optional<QColor> heat() const { return m_heat; }

  private:
    int m_block;
    const GraphStyle* m_style;
    QRectF m_box;
    QRectF m_badgeRect;
    qreal m_badgeHomeLeft = 0;
    QString m_badgeText;
    QStaticText m_badge;
    QColor m_color;
    std::optional<QColor> m_heat;
    bool m_invalid = false;
    DropState m_dropState = DropState::None;
};

// A handle on an edge that crosses from one block into the next: dragged along the chain onto
// an op, it asks to move the boundary there (the blocks grow and shrink accordingly).
class BoundaryHandleItem : public QGraphicsItem {
  public:
    BoundaryHandleItem(ir::OpId producer, ir::OpId consumer, QPointF centre, QColor color);

    enum { Type = BoundaryHandleItemType };
    int type() const override { return Type; }
    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    // The edge it sits on: `producer` in the upstream block, `consumer` in the downstream one.
    ir::OpId producer() const { return m_producer; }
    ir::OpId consumer() const { return m_consumer; }

  private:
    ir::OpId m_producer;
    ir::OpId m_consumer;
    QColor m_color;
};

} // namespace strata::views::graph
