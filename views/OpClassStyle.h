#pragma once
// One colour per op class, shared by every view that marks ops (table, summary, later the graph
// and the timeline), so "conv is blue" holds across the app.

#include "ir/OpClass.h"

#include <QColor>

namespace strata::views {

// A muted, colour-blind-friendlier palette (Tableau 10), readable on light and dark bases.
QColor opClassColor(ir::OpClass opClass);

} // namespace strata::views
