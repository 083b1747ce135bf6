#include "views/graph/BadgePlacement.h"

#include <algorithm>
#include <limits>

namespace strata::views::graph {

namespace {

constexpr qreal kStep = 4;        // how far a badge slides per try (scene units)
constexpr qreal kTextPadding = 8; // the pill's room either side of its text

} // namespace

std::vector<Span> spansInBand(const QPainterPath& path, qreal top, qreal bottom, qreal clearance) {
    std::vector<Span> spans;
    for (const QPolygonF& polyline : path.toSubpathPolygons()) {
        for (qsizetype i = 0; i + 1 < polyline.size(); ++i) {
            QPointF a = polyline[i];
            QPointF b = polyline[i + 1];
            if (std::max(a.y(), b.y()) < top || std::min(a.y(), b.y()) > bottom)
                continue;
            // Clip the segment to the band; a flat segment inside it is kept whole.
            auto at = [&](qreal y) {
                const qreal dy = b.y() - a.y();
                return dy == 0 ? a : a + (b - a) * ((y - a.y()) / dy);
            };
            const QPointF p = a.y() < top ? at(top) : a.y() > bottom ? at(bottom) : a;
            const QPointF q = b.y() < top ? at(top) : b.y() > bottom ? at(bottom) : b;
            spans.push_back(
                {std::min(p.x(), q.x()) - clearance, std::max(p.x(), q.x()) + clearance});
        }
    }
    return spans;
}

QRectF badgeTextRect(const QRectF& pill) {
    return pill.adjusted(kTextPadding, 0, -kTextPadding, 0);
}

BadgeSpot placeBadge(const QRectF& home, const QRectF& box, const std::vector<Span>& edges,
                     const std::vector<QRectF>& obstacles, qreal reach) {
    const qreal width = home.width();
    const qreal lowest = std::min(home.left(), box.left() + reach - width);
    const qreal highest = std::max(home.left(), box.right() - std::min(reach, width));
    auto blockers = [&](qreal left) {
        const QRectF pill = home.translated(left - home.left(), 0);
        const QRectF text = badgeTextRect(pill);
        int count = 0;
        for (const Span& span : edges)
            count += span.right > text.left() && span.left < text.right();
        for (const QRectF& obstacle : obstacles)
            count += obstacle.intersects(pill);
        return count;
    };
    BadgeSpot best{home.left(), std::numeric_limits<int>::max()};
    auto consider = [&](qreal left) {
        const int count = blockers(left);
        if (count < best.blockers)
            best = {left, count};
        return count == 0;
    };
    for (qreal left = home.left(); left <= highest; left += kStep)
        if (consider(left))
            return best;
    for (qreal left = home.left() - kStep; left >= lowest; left -= kStep)
        if (consider(left))
            return best;
    return best;
}

} // namespace strata::views::graph
