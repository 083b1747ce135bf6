#pragma once
// What one lane draws in one frame (Tracy's folding): an event at least `minWidthPx` wide is one
// rectangle; narrower events that start in the same `minWidthPx`-wide column of pixels merge into
// one counted block ("23 events"), so a lane draws at most about one item per column however many
// events it holds. Built before painting; the paint code only paints the list.

#include "timeline/Lanes.h"
#include "timeline/Viewport.h"

#include <cstdint>
#include <vector>

namespace strata::timeline {

struct DrawItem {
    float x0 = 0;               // pixels from the event area's left edge (may be off screen)
    float x1 = 0;               // >= x0 + 1 (a folded block or a tiny event stays visible)
    std::uint32_t first = 0;    // position in the lane of its first event
    std::uint32_t count = 1;    // events it stands for: lane positions [first, first + count)
    std::int32_t block = -1;    // the block of its middle event (the colour a fold takes)
    trace::EventKind kind = trace::EventKind::Compute; // the kind of its middle event
    bool mixedBlocks = false;   // a fold whose first and last events are of different blocks

    bool folded() const { return count > 1; }
};

inline constexpr double kDefaultFoldPx = 3;

// Appends to `out` the items of `lane`'s events visible in `view`. Every visible event is in
// exactly one item; items are in lane order and cover contiguous positions.
void buildDrawList(const Lane& lane, const trace::Trace& trace, const Viewport& view,
                   std::vector<DrawItem>& out, double minWidthPx = kDefaultFoldPx);

} // namespace strata::timeline
