#include "views/graph/GraphItems.h"

#include <QCursor>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPathStroker>
#include <QStyleOptionGraphicsItem>
#include <QtMath>

namespace strata::views::graph {

namespace {

// Below these zoom levels the text would be a few pixels high: draw shapes only.
constexpr qreal kTextLod = 0.42;
constexpr qreal kDetailLod = 0.2;

constexpr qreal kNodeRadius = 5;
constexpr qreal kArrowLength = 8;
constexpr qreal kArrowHalfWidth = 3.6;
constexpr qreal kHaloWidth = 4;        // search and selection halo, outside the box
const QColor kAlert(0xC6, 0x28, 0x28); // badges of blocks with a schedule error

qreal levelOfDetail(const QPainter* painter) {
    return QStyleOptionGraphicsItem::levelOfDetailFromTransform(painter->worldTransform());
}

bool isDark(const QColor& color) {
    // Perceived luminance (Rec. 601): white text on darker fills, dark text on light ones.
    return 0.299 * color.redF() + 0.587 * color.greenF() + 0.114 * color.blueF() < 0.62;
}

QStaticText staticText(const QString& text) {
    QStaticText out(text);
    out.setTextFormat(Qt::PlainText);
    out.setPerformanceHint(QStaticText::AggressiveCaching);
    return out;
}

// A "no" sign (a circle with a slash) in the alert colour, for a refused drop.
void paintRefusalSign(QPainter* painter, const QRectF& rect) {
    painter->setPen(QPen(kAlert, 2.2));
    painter->setBrush(Qt::white);
    const QRectF circle = rect.adjusted(1.5, 1.5, -1.5, -1.5);
    painter->drawEllipse(circle);
    const qreal inset = circle.width() * 0.15;
    painter->drawLine(circle.topLeft() + QPointF(inset, inset),
                      circle.bottomRight() - QPointF(inset, inset));
}

constexpr qreal kRefusalSign = 18; // the "no" sign's size

// A pill for badges: rounded to half its height.
void paintPill(QPainter* painter, const QRectF& rect, const QColor& fill) {
    painter->setPen(Qt::NoPen);
    painter->setBrush(fill);
    painter->drawRoundedRect(rect, rect.height() / 2, rect.height() / 2);
}

} // namespace

// --- NodeItem --------------------------------------------------------------------------------

NodeItem::NodeItem(std::size_t index, const layout::NodeBox& box, const NodeContent& content,
                   const GraphStyle* style)
    : m_index(index), m_ref(box.ref), m_content(content), m_style(style),
      m_box(0, 0, box.box.width, box.box.height) {
    setPos(box.box.x, box.box.y);
    setFlag(ItemIsSelectable);
    setAcceptHoverEvents(false);
    setCursor(Qt::PointingHandCursor);
    preparePaths();
    prepareTexts();
}

void NodeItem::preparePaths() {
    const qreal radius = m_content.kind == layout::NodeKind::Op ? kNodeRadius
                         : m_content.kind == layout::NodeKind::Block
                             ? kNodeRadius + 1
                             : std::min<qreal>(14, m_box.height() / 2);
    m_outline.addRoundedRect(m_box, radius, radius);
    if (m_content.kind == layout::NodeKind::Op) {
        // The header band, clipped to the rounded box.
        QPainterPath band;
        band.addRect(
            QRectF(0, 0, m_box.width(), m_style->metrics.paddingY + m_style->metrics.lineHeight));
        m_header = m_outline.intersected(band);
    }
}

void NodeItem::prepareTexts() {
    const layout::TextMetrics& metrics = m_style->metrics;
    // Half a pixel of slack: the layout rounds sizes to whole points.
    const qreal available = m_box.width() - 2 * metrics.paddingX + 0.5;
    const QFontMetricsF title(m_style->titleFont);
    const QFontMetricsF body(m_style->bodyFont);
    m_title = staticText(title.elidedText(m_content.title, Qt::ElideRight, available));
    m_name = staticText(body.elidedText(m_content.name, Qt::ElideMiddle, available));
    m_detail = staticText(body.elidedText(m_content.detail, Qt::ElideRight, available));
    m_title.prepare(QTransform(), m_style->titleFont);
    m_name.prepare(QTransform(), m_style->bodyFont);
    m_detail.prepare(QTransform(), m_style->bodyFont);
    m_badge = staticText(m_content.badge);
    m_badge.prepare(QTransform(), m_style->badgeFont);
}

QRectF NodeItem::boundingRect() const {
    // Room for the halo and, on collapsed blocks, the stacked look and the badge above.
    QRectF bounds =
        m_box.adjusted(-kHaloWidth - 1, -kHaloWidth - 12, kHaloWidth + 5, kHaloWidth + 5);
    if (!m_content.badge.isEmpty())
        bounds = bounds.united(badgePill().adjusted(-1, -1, 1, 1));
    return bounds;
}

QRectF NodeItem::badgePill() const {
    // Above the top edge, clear of the title line below it; a long badge reaches out left.
    const QSizeF size = m_badge.size();
    return QRectF(m_box.right() - size.width() - 14, -15, size.width() + 12, 18);
}

QPainterPath NodeItem::shape() const {
    QPainterPath path;
    path.addRect(m_box);
    return path;
}

void NodeItem::setSearchHit(bool hit) {
    if (hit == m_searchHit)
        return;
    m_searchHit = hit;
    update();
}

void NodeItem::setBadge(const QString& badge, bool invalid) {
    if (badge == m_content.badge && invalid == m_badgeInvalid)
        return;
    prepareGeometryChange(); // the pill is part of the bounds
    m_content.badge = badge;
    m_badgeInvalid = invalid;
    m_badge = staticText(badge);
    m_badge.prepare(QTransform(), m_style->badgeFont);
    update();
}

void NodeItem::setDragged(bool dragged) {
    if (dragged == m_dragged)
        return;
    m_dragged = dragged;
    setZValue(dragged ? 100 : 0);
    setOpacity(dragged ? 0.85 : 1.0);
    update();
}

void NodeItem::setDropState(DropState state) {
    if (state == m_dropState)
        return;
    m_dropState = state;
    update();
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    const qreal lod = levelOfDetail(painter);
    if (lod < kDetailLod) {
        // Far out: a flat box in the node's colour is all that can be seen anyway.
        painter->fillRect(m_box, isSelected()  ? m_style->accent
                                 : m_searchHit ? m_style->searchHit
                                               : m_content.accent);
        return;
    }
    const bool detailed = lod >= kTextLod;
    switch (m_content.kind) {
    case layout::NodeKind::Op:
        paintOp(painter, detailed);
        break;
    case layout::NodeKind::Block:
        paintBlock(painter, detailed);
        break;
    case layout::NodeKind::Input:
    case layout::NodeKind::Output:
        paintTerminal(painter, detailed);
        break;
    }
}

void NodeItem::paintOutline(QPainter* painter, const QPainterPath& outline) const {
    if (m_searchHit && !isSelected()) {
        painter->setPen(QPen(m_style->searchHit, 3));
        painter->setBrush(Qt::NoBrush);
        painter->drawPath(outline);
    }
    if (isSelected()) {
        QColor halo = m_style->accent;
        halo.setAlpha(70);
        painter->setPen(QPen(halo, 2 * kHaloWidth));
        painter->setBrush(Qt::NoBrush);
        painter->drawPath(outline);
        painter->setPen(QPen(m_style->accent, 2));
        painter->drawPath(outline);
    }
}

void NodeItem::paintTexts(QPainter* painter, qreal titleTop, qreal bodyTop,
                          const QColor& titleColor) const {
    const layout::TextMetrics& metrics = m_style->metrics;
    const qreal line = metrics.lineHeight;
    // Each text is centred vertically in its line.
    auto at = [&](const QStaticText& text, qreal lineTop) {
        return QPointF(metrics.paddingX, lineTop + (line - text.size().height()) / 2);
    };
    qreal y = bodyTop;
    if (!m_content.title.isEmpty()) {
        painter->setFont(m_style->titleFont);
        painter->setPen(titleColor);
        painter->drawStaticText(at(m_title, titleTop), m_title);
    } else {
        y = titleTop;
    }
    painter->setFont(m_style->bodyFont);
    if (!m_content.name.isEmpty()) {
        painter->setPen(m_style->text);
        painter->drawStaticText(at(m_name, y), m_name);
        y += line;
    }
    if (!m_content.detail.isEmpty()) {
        painter->setPen(m_style->mutedText);
        painter->drawStaticText(at(m_detail, y), m_detail);
    }
}

void NodeItem::paintOp(QPainter* painter, bool detailed) const {
    const layout::TextMetrics& metrics = m_style->metrics;
    const qreal band = metrics.paddingY + metrics.lineHeight;
    if (m_dragged) {
        // Lifted off the canvas while it is dragged to another block.
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(0, 0, 0, 40));
        painter->drawPath(m_outline.translated(3, 4));
    }
    // Body, then the type's header band in the op class colour, then the border.
    painter->setPen(Qt::NoPen);
    painter->setBrush(m_style->nodeBody);
    painter->drawPath(m_outline);
    painter->setBrush(m_content.accent);
    painter->drawPath(m_header);
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(m_content.accent.darker(125), 1));
    painter->drawPath(m_outline);
    paintOutline(painter, m_outline);
    if (!detailed)
        return;
    // The title sits in the band; the body lines share what is left below it.
    const QColor titleColor = isDark(m_content.accent) ? QColor(Qt::white) : m_style->text;
    paintTexts(painter, (band - metrics.lineHeight) / 2, band + metrics.paddingY / 2, titleColor);
}

void NodeItem::paintBlock(QPainter* painter, bool detailed) const {
    const QColor color = m_content.accent;
    // A second box peeking out below-right says "several ops in here".
    QColor under = color;
    under.setAlpha(90);
    painter->setPen(QPen(under, 1));
    painter->setBrush(QColor(0xFF, 0xFF, 0xFF));
    painter->drawRoundedRect(m_box.translated(4, 4), kNodeRadius + 1, kNodeRadius + 1);

    QColor fill = color;
    fill.setAlpha(38);
    painter->setPen(Qt::NoPen);
    painter->setBrush(Qt::white);
    painter->drawPath(m_outline);
    painter->setBrush(fill);
    painter->drawPath(m_outline);
    painter->setBrush(Qt::NoBrush);
    const bool refused = m_dropState == DropState::Refused;
    painter->setPen(QPen(refused ? kAlert : color, m_dropState != DropState::None ? 3.5 : 1.6,
                         refused ? Qt::DashLine : Qt::SolidLine));
    painter->drawPath(m_outline);
    paintOutline(painter, m_outline);
    if (refused)
        paintRefusalSign(painter,
                         QRectF(m_box.left() + 4, -kRefusalSign / 2, kRefusalSign, kRefusalSign));
    if (!detailed)
        return;
    paintTexts(painter, m_style->metrics.paddingY,
               m_style->metrics.paddingY + m_style->metrics.lineHeight, color.darker(150));
    if (!m_content.badge.isEmpty()) {
        const QSizeF size = m_badge.size();
        const QRectF pill = badgePill();
        paintPill(painter, pill, m_badgeInvalid ? kAlert : color);
        painter->setFont(m_style->badgeFont);
        painter->setPen(Qt::white);
        painter->drawStaticText(
            QPointF(pill.x() + 6, pill.y() + (pill.height() - size.height()) / 2), m_badge);
    }
}

void NodeItem::paintTerminal(QPainter* painter, bool detailed) const {
    painter->setPen(QPen(m_style->edge, 1));
    painter->setBrush(m_style->ioFill);
    painter->drawPath(m_outline);
    paintOutline(painter, m_outline);
    if (detailed)
        paintTexts(painter, m_style->metrics.paddingY,
                   m_style->metrics.paddingY + m_style->metrics.lineHeight, m_style->mutedText);
}

// --- EdgeItem --------------------------------------------------------------------------------

EdgeItem::EdgeItem(std::size_t index, const std::vector<layout::Point>& points,
                   const GraphStyle* style)
    : m_index(index), m_style(style) {
    setZValue(-1);
    setAcceptHoverEvents(true);
    if (points.size() < 4)
        return;
    m_path.moveTo(points[0].x, points[0].y);
    for (std::size_t i = 1; i + 2 < points.size(); i += 3)
        m_path.cubicTo(points[i].x, points[i].y, points[i + 1].x, points[i + 1].y, points[i + 2].x,
                       points[i + 2].y);

    // The arrowhead points along the curve's last tangent; its tip is the curve's end, on the
    // head's box.
    const QPointF tip(points.back().x, points.back().y);
    QPointF from(points[points.size() - 2].x, points[points.size() - 2].y);
    if (QLineF(from, tip).length() < 0.5)
        from = QPointF(points.front().x, points.front().y);
    QLineF axis(tip, from);
    if (axis.length() < 0.5)
        axis = QLineF(tip, tip - QPointF(0, 1));
    const QPointF unit = (axis.p2() - axis.p1()) / axis.length();
    const QPointF normal(-unit.y(), unit.x());
    const QPointF base = tip + unit * kArrowLength;
    m_arrow << tip << base + normal * kArrowHalfWidth << base - normal * kArrowHalfWidth;
    m_bounds = m_path.boundingRect().united(m_arrow.boundingRect()).adjusted(-3, -3, 3, 3);
}

QRectF EdgeItem::boundingRect() const {
    return m_bounds;
}

QPainterPath EdgeItem::shape() const {
    if (m_shape.isEmpty() && !m_path.isEmpty()) {
        QPainterPathStroker stroker;
        stroker.setWidth(8);
        m_shape = stroker.createStroke(m_path);
        m_shape.addPolygon(m_arrow);
    }
    return m_shape;
}

void EdgeItem::setHighlighted(bool highlighted) {
    if (highlighted == m_highlighted)
        return;
    m_highlighted = highlighted;
    setZValue(highlighted ? -0.5 : -1);
    update();
}

void EdgeItem::setGaps(std::vector<QRectF> gaps) {
    m_gaps = std::move(gaps);
    m_clip = QPainterPath();
    if (!m_gaps.empty()) {
        m_clip.addRect(m_bounds);
        QPainterPath holes;
        for (const QRectF& gap : m_gaps)
            holes.addRect(gap);
        m_clip = m_clip.subtracted(holes);
    }
    update();
}

void EdgeItem::hoverEnterEvent(QGraphicsSceneHoverEvent* event) {
    m_hovered = true;
    update();
    QGraphicsItem::hoverEnterEvent(event);
}

void EdgeItem::hoverLeaveEvent(QGraphicsSceneHoverEvent* event) {
    m_hovered = false;
    update();
    QGraphicsItem::hoverLeaveEvent(event);
}

void EdgeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    const qreal lod = levelOfDetail(painter);
    const bool emphasised = m_highlighted || m_hovered;
    const QColor color = emphasised ? m_style->accent : m_style->edge;
    if (!m_clip.isEmpty())
        painter->setClipPath(m_clip, Qt::IntersectClip);
    if (lod < kDetailLod && !emphasised) {
        // Far out: a hairline without antialiasing or arrowhead.
        painter->setRenderHint(QPainter::Antialiasing, false);
        painter->setPen(QPen(color, 0));
        painter->setBrush(Qt::NoBrush);
        painter->drawPath(m_path);
        painter->setRenderHint(QPainter::Antialiasing, true);
        return;
    }
    painter->setPen(QPen(color, emphasised ? 2.0 : 1.25, Qt::SolidLine, Qt::FlatCap));
    painter->setBrush(Qt::NoBrush);
    painter->drawPath(m_path);
    painter->setPen(Qt::NoPen);
    painter->setBrush(color);
    painter->drawPolygon(m_arrow);
}

// --- ClusterItem -----------------------------------------------------------------------------

ClusterItem::ClusterItem(const layout::ClusterBox& cluster, const GraphStyle* style)
    : m_block(cluster.block), m_style(style),
      m_box(cluster.box.x, cluster.box.y, cluster.box.width, cluster.box.height),
      m_color(blockColor(cluster.block)) {
    setZValue(-10);
    setFlag(ItemIsSelectable);
    setCursor(Qt::PointingHandCursor);
    // The badge sits in the room the layout kept at the top-left.
    const qreal height = std::min<qreal>(20, std::max<qreal>(cluster.label.height - 2, 14));
    m_badgeRect = QRectF(cluster.label.x + 2, cluster.label.y + (cluster.label.height - height) / 2,
                         cluster.label.width - 4, height);
    if (cluster.label.width <= 0)
        m_badgeRect = QRectF(m_box.x() + 6, m_box.y() + 4, 120, 18);
    m_badgeHomeLeft = m_badgeRect.left();
    setBadge(QStringLiteral("Block %1").arg(m_block));
}

void ClusterItem::setDropState(DropState state) {
    if (state == m_dropState)
        return;
    prepareGeometryChange(); // the "no" sign widens the item
    m_dropState = state;
    update();
}

QRectF ClusterItem::refusalSignRect() const {
    return QRectF(m_badgeRect.right() + 4, m_badgeRect.center().y() - kRefusalSign / 2,
                  kRefusalSign, kRefusalSign);
}

void ClusterItem::setHeat(std::optional<QColor> color) {
    if (color == m_heat)
        return;
    m_heat = color;
    update();
}

void ClusterItem::setBadge(const QString& text, bool invalid) {
    m_invalid = invalid;
    m_badgeText = text;
    m_badge = staticText(text);
    m_badge.prepare(QTransform(), m_style->badgeFont);
    // The pill hugs its text; it never shrinks below the text, even if the room is smaller.
    prepareGeometryChange();
    m_badgeRect.setWidth(m_badge.size().width() + 16);
    update();
}

void ClusterItem::moveBadge(qreal left) {
    if (left == m_badgeRect.left())
        return;
    prepareGeometryChange();
    m_badgeRect.moveLeft(left);
    update();
}

QRectF ClusterItem::boundingRect() const {
    QRectF bounds = m_box.united(m_badgeRect);
    if (m_dropState == DropState::Refused)
        bounds = bounds.united(refusalSignRect());
    return bounds.adjusted(-kHaloWidth, -kHaloWidth, kHaloWidth, kHaloWidth);
}

QPainterPath ClusterItem::shape() const {
    QPainterPath path;
    path.addRoundedRect(m_badgeRect, m_badgeRect.height() / 2, m_badgeRect.height() / 2);
    return path;
}

void ClusterItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    const qreal lod = levelOfDetail(painter);
    const bool dropTarget = m_dropState != DropState::None;
    const bool refused = m_dropState == DropState::Refused;
    const bool emphasised = isSelected() || dropTarget;
    // A heat colour fills the region strongly (it is the figure being read); a block's own
    // colour only tints it. A refused drop turns the region to the alert colour.
    QColor fill = refused ? kAlert : m_heat.value_or(m_color);
    fill.setAlpha(refused ? 40 : dropTarget ? 60 : m_heat ? 115 : 24);
    QColor border = refused ? kAlert : m_heat ? m_heat->darker(140) : m_color;
    border.setAlpha(emphasised ? 255 : 150);
    painter->setPen(QPen(border,
                         dropTarget     ? 3.5
                         : isSelected() ? 2.4
                                        : 1.3,
                         refused      ? Qt::DashDotLine
                         : dropTarget ? Qt::DashLine
                                      : Qt::SolidLine));
    painter->setBrush(fill);
    painter->drawRoundedRect(m_box, 10, 10);
    if (refused)
        paintRefusalSign(painter, refusalSignRect());
    if (lod < kTextLod)
        return;
    const QColor pill = m_invalid ? kAlert : m_color;
    paintPill(painter, m_badgeRect, pill);
    painter->setFont(m_style->badgeFont);
    painter->setPen(isDark(pill) ? QColor(Qt::white) : m_style->text);
    const QSizeF size = m_badge.size();
    painter->drawStaticText(
        QPointF(m_badgeRect.x() + 8, m_badgeRect.y() + (m_badgeRect.height() - size.height()) / 2),
        m_badge);
}

BoundaryHandleItem::BoundaryHandleItem(ir::OpId producer, ir::OpId consumer, QPointF centre,
                                       QColor color)
    : m_producer(producer), m_consumer(consumer), m_color(color) {
    setPos(centre);
    setZValue(5); // over edges and nodes' halos
    setCursor(Qt::SizeVerCursor);
    setToolTip(QObject::tr("Block boundary: drag it along the chain onto an op to move the "
                           "boundary there"));
}

QRectF BoundaryHandleItem::boundingRect() const {
    // Small: it must fit between a block's last node and the badge of the next block.
    return QRectF(-9, -5, 18, 10);
}

void BoundaryHandleItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    if (levelOfDetail(painter) < kTextLod)
        return;
    painter->setPen(QPen(m_color.darker(130), 1.4));
    painter->setBrush(Qt::white);
    painter->drawRoundedRect(QRectF(-8, -4, 16, 8), 4, 4);
    painter->setPen(QPen(m_color.darker(130), 1.1));
    painter->drawLine(QPointF(-4, -1.2), QPointF(4, -1.2));
    painter->drawLine(QPointF(-4, 1.2), QPointF(4, 1.2));
}

} // namespace strata::views::graph
