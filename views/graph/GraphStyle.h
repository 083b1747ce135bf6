#pragma once
// How the graph view looks: fonts, paddings and colours in one place. The layout reserves
// room with textMetrics(), measured with the same fonts the items paint with, so labels fit
// their boxes at every size.

#include "layout/NodeLabel.h"

#include <QColor>
#include <QFont>

namespace strata::views::graph {

struct GraphStyle {
    QFont titleFont; // the op type line (bold)
    QFont bodyFont;  // name and shape lines
    QFont badgeFont; // block badges
    QColor canvas{0xF7, 0xF8, 0xFA};
    QColor nodeBody{0xFF, 0xFF, 0xFF};
    QColor text{0x20, 0x24, 0x2A};
    QColor mutedText{0x5F, 0x66, 0x70};
    QColor edge{0x8C, 0x93, 0x9D};
    QColor accent{0x1F, 0x6F, 0xEB};    // selection
    QColor searchHit{0xF5, 0xA6, 0x23}; // search matches
    QColor ioFill{0xEC, 0xEE, 0xF1};
    layout::TextMetrics metrics; // paddings and limits; measure is set by standard()

    // The style the view uses: sizes in pixels, so one scene unit is one pixel at 100 %.
    static GraphStyle standard();

    // Layout metrics measured with this style's fonts. Safe to call from a worker thread: the
    // measure function builds its QFontMetricsF where it runs.
    layout::TextMetrics textMetrics() const;
};

// A translucent, distinct colour per block (cycled): regions stay readable on top of each other
// and do not compete with the op-class colours of the nodes inside.
QColor blockColor(int block);

} // namespace strata::views::graph
