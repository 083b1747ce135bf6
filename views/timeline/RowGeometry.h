#pragma once
// Where each timeline row sits vertically: rows stacked from the top in content pixels, compute
// rows a little taller than path rows, and which rows a scrolled window of them shows.

#include "timeline/TimelineData.h"
#include "views/timeline/TimelineStyle.h"

#include <cstddef>
#include <vector>

namespace strata::views::timeline {

struct RowGeometry {
    std::vector<double> top;    // per row, its top in content pixels; one more entry: the end

    static RowGeometry of(const std::vector<strata::timeline::Row>& rows, const TimelineStyle& style);
    double height() const { return top.empty() ? 0 : top.back(); }
    std::size_t rows() const { return top.empty() ? 0 : top.size() - 1; }
    double rowHeight(std::size_t row) const { return top[row + 1] - top[row]; }
    // The row at content pixel `y`, or rows() when none.
    std::size_t rowAt(double y) const;
    // The rows [first, last) that intersect content pixels [y0, y1).
    std::pair<std::size_t, std::size_t> visible(double y0, double y1) const;
};

} // namespace strata::views::timeline
