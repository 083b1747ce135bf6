#include "timeline/Frame.h"

#include <algorithm>

namespace strata::timeline {

std::size_t Frame::items() const {
    std::size_t n = 0;
    for (const FrameLane& lane : lanes)
        n += lane.items.size();
    return n;
}

void buildFrame(const TimelineData& data, const std::vector<Row>& rows, std::size_t firstRow,
                std::size_t lastRow, const Viewport& view, Frame& frame, double minWidthPx) {
    frame.view = view;
    lastRow = std::min(lastRow, rows.size());
    std::size_t used = 0;
    for (std::size_t r = firstRow; r < lastRow; ++r)
        for (const LaneRef& ref : rows[r].lanes) {
            if (used == frame.lanes.size())
                frame.lanes.emplace_back();
            FrameLane& lane = frame.lanes[used++];
            lane.row = r;
            lane.lane = ref;
            lane.items.clear(); // keeps its capacity: no allocation per frame once warm
            buildDrawList(data.lane(ref), *data.traces()[ref.trace], view, lane.items, minWidthPx);
        }
    frame.lanes.resize(used);
}

} // namespace strata::timeline
