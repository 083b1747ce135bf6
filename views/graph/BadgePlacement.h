#pragma once
// Where a block's badge sits on the row the layout keeps for it at the top of the block. The
// layout keeps that row free of nodes, not of edges: an edge entering the block from above
// runs through it, and through the badge's text if the badge stays where the row starts. So
// the badge slides along its row to the nearest spot no edge crosses.

#include <QPainterPath>
#include <QRectF>
#include <vector>

namespace strata::views::graph {

// An x range a badge's text must not overlap.
struct Span {
    qreal left = 0;
    qreal right = 0;
};

// Where `path` (an edge, as drawn) passes through the band between `top` and `bottom`, widened
// by `clearance` on each side: one span per pass.
std::vector<Span> spansInBand(const QPainterPath& path, qreal top, qreal bottom, qreal clearance);

// The badge's text: the pill less its padding.
QRectF badgeTextRect(const QRectF& pill);

struct BadgeSpot {
    qreal left = 0;   // the pill's left edge
    int blockers = 0; // spans and obstacles it still overlaps there
};

// The spot for a pill shaped like `home` (where the layout put it) on the same row of
// the block `box`: the nearest spot, sliding right inside the block first, then left, where
// the text overlaps no span of `edges` and the pill none of `obstacles` (nodes, badges placed
// before); with none, the one overlapping the fewest. A pill wider than the block may reach
// out of it, but always keeps `reach` over it.
BadgeSpot placeBadge(const QRectF& home, const QRectF& box, const std::vector<Span>& edges,
                     const std::vector<QRectF>& obstacles, qreal reach = 24);

} // namespace strata::views::graph
