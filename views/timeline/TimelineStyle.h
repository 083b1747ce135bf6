#pragma once
// How the timeline looks: row heights, fonts and the colours of events. By block, an event takes
// its block's colour from the graph (graph::blockColor), so a block reads the same in both tabs;
// by kind, computes, transfers, waits and barriers have fixed colours.

#include "trace/Trace.h"

#include <QColor>
#include <QFont>

namespace strata::views::timeline {

enum class ColorMode { Block, Kind };

struct TimelineStyle {
    int rowHeight = 18;         // a compute row
    int transferRowHeight = 14; // a path row (transfers are drawn a little thinner)
    QColor background{0xFF, 0xFF, 0xFF};
    QColor groupShade{0xF3, 0xF5, 0xF8};  // every other core's rows
    QColor separator{0xD5, 0xDA, 0xE1};
    QColor text{0x20, 0x24, 0x2A};
    QColor mutedText{0x5F, 0x66, 0x70};
    QColor selection{0x1F, 0x6F, 0xEB};
    QColor rangeFill{0x1F, 0x6F, 0xEB, 0x22};
    QFont labelFont;
    QFont groupFont;

    static TimelineStyle standard();
};

QColor kindColor(trace::EventKind kind);
// The fill of an event (or fold) of `block` and `kind`: waits and barriers are paler, they are
// time spent not working.
QColor eventColor(ColorMode mode, std::int32_t block, trace::EventKind kind);

} // namespace strata::views::timeline
