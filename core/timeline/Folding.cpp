#include "timeline/Folding.h"

#include <algorithm>
#include <cmath>

namespace strata::timeline {

void buildDrawList(const Lane& lane, const trace::Trace& trace, const Viewport& view,
                   std::vector<DrawItem>& out, double minWidthPx) {
    minWidthPx = std::max(minWidthPx, 1.0);
    const auto fromPs = static_cast<std::int64_t>(std::floor(view.startPs));
    const auto toPs = static_cast<std::int64_t>(std::ceil(view.endPs()));
    auto [i, last] = visibleRange(lane, fromPs, toPs);
    const auto px = [&](std::int64_t ps) { return view.toPixel(static_cast<double>(ps)); };
    const auto narrow = [&](std::size_t k) { return px(lane.endPs[k]) - px(lane.startPs[k]) < minWidthPx; };

    while (i < last) {
        const double x0 = px(lane.startPs[i]);
        if (!narrow(i)) {
            const trace::Event& e = trace.events[lane.events[i]];
            out.push_back({static_cast<float>(x0), static_cast<float>(px(lane.endPs[i])),
                           static_cast<std::uint32_t>(i), 1, e.block, e.kind, false});
            ++i;
            continue;
        }
        // Every narrow event starting in this column of pixels joins the fold. The column grid is
        // fixed to the view, so a fold never grows along a busy lane into one giant block.
        const double column = std::floor(x0 / minWidthPx) * minWidthPx;
        const auto columnEndPs = static_cast<std::int64_t>(std::ceil(view.toPs(column + minWidthPx)));
        std::size_t j = static_cast<std::size_t>(
            std::lower_bound(lane.startPs.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                             lane.startPs.begin() + static_cast<std::ptrdiff_t>(last), columnEndPs) -
            lane.startPs.begin());
        // A wide event starting late in the column is drawn on its own (on a lane whose events
        // do not overlap only the last one can be wide).
        if (j - 1 > i && !narrow(j - 1))
            --j;
        const std::size_t middle = i + (j - i) / 2;
        const trace::Event& m = trace.events[lane.events[middle]];
        const trace::Event& a = trace.events[lane.events[i]];
        const trace::Event& b = trace.events[lane.events[j - 1]];
        const double x1 = std::max(px(lane.endPs[j - 1]), x0 + 1);
        out.push_back({static_cast<float>(x0), static_cast<float>(x1), static_cast<std::uint32_t>(i),
                       static_cast<std::uint32_t>(j - i), m.block, m.kind, a.block != b.block});
        i = j;
    }
}

} // namespace strata::timeline
