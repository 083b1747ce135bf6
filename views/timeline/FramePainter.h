#pragma once
// Paints one built timeline Frame: row bands and separators, then each lane's draw items. Only
// paints: the items were folded and culled when the frame was built. The event lanes' plottable
// and the frame benchmark both call it.

#include "timeline/Frame.h"
#include "views/timeline/RowGeometry.h"
#include "views/timeline/TimelineStyle.h"

#include <QRectF>
#include <cstdint>
#include <optional>

class QPainter;

namespace strata::views::timeline {

struct PaintOptions {
    ColorMode colors = ColorMode::Block;
    strata::timeline::RowMode rowMode = strata::timeline::RowMode::Paired;
    double scrollY = 0;           // content pixels above the area's top
    // The selected event: its lane and position in the lane.
    std::optional<std::pair<strata::timeline::LaneRef, std::uint32_t>> selected;
};

// `area` is the event area in the painter's coordinates: its left edge is the frame's pixel 0.
void paintFrame(QPainter& painter, const QRectF& area, const strata::timeline::Frame& frame,
                const strata::timeline::TimelineData& data, const std::vector<strata::timeline::Row>& rows,
                const RowGeometry& geometry, const TimelineStyle& style, const PaintOptions& options);

} // namespace strata::views::timeline
