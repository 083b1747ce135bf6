#include "views/timeline/RowGeometry.h"

#include <algorithm>

namespace strata::views::timeline {

RowGeometry RowGeometry::of(const std::vector<strata::timeline::Row>& rows, const TimelineStyle& style) {
    RowGeometry g;
    g.top.reserve(rows.size() + 1);
    double y = 0;
    for (const strata::timeline::Row& row : rows) {
        g.top.push_back(y);
        y += row.key.kind == strata::timeline::LaneKind::Compute ? style.rowHeight : style.transferRowHeight;
    }
    g.top.push_back(y);
    return g;
}

std::size_t RowGeometry::rowAt(double y) const {
    if (rows() == 0 || y < 0 || y >= height())
        return rows();
    const auto it = std::upper_bound(top.begin(), top.end(), y);
    return static_cast<std::size_t>(it - top.begin()) - 1;
}

std::pair<std::size_t, std::size_t> RowGeometry::visible(double y0, double y1) const {
    if (rows() == 0)
        return {0, 0};
    const auto first = std::upper_bound(top.begin(), top.end() - 1, y0);
    const auto last = std::lower_bound(top.begin(), top.end() - 1, y1);
    const std::size_t a = first == top.begin() ? 0 : static_cast<std::size_t>(first - top.begin()) - 1;
    return {a, std::max(a, static_cast<std::size_t>(last - top.begin()))};
}

} // namespace strata::views::timeline
