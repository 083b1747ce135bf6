#pragma once
// Everything one frame of the timeline draws, built before painting (Tracy): for each row on
// screen, each of its lanes' folded draw list. Rebuilt when the view or the rows change; the
// paint code only walks it.

#include "timeline/Folding.h"
#include "timeline/TimelineData.h"

#include <cstddef>
#include <vector>

namespace strata::timeline {

struct FrameLane {
    std::size_t row = 0;        // index into the rows the frame was built for
    LaneRef lane;
    std::vector<DrawItem> items;
};

struct Frame {
    Viewport view;
    std::vector<FrameLane> lanes;
    std::size_t items() const;
};

// The frame of rows [firstRow, lastRow) of `rows` in `view`. Reuses `frame`'s buffers.
void buildFrame(const TimelineData& data, const std::vector<Row>& rows, std::size_t firstRow,
                std::size_t lastRow, const Viewport& view, Frame& frame,
                double minWidthPx = kDefaultFoldPx);

} // namespace strata::timeline
