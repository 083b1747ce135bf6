#include "views/timeline/TimelineStyle.h"

#include "views/graph/GraphStyle.h"

#include <QApplication>

namespace strata::views::timeline {

TimelineStyle TimelineStyle::standard() {
    TimelineStyle style;
    style.labelFont = QApplication::font();
    style.labelFont.setPixelSize(11);
    style.groupFont = style.labelFont;
    style.groupFont.setBold(true);
    return style;
}

QColor kindColor(trace::EventKind kind) {
    switch (kind) {
    case trace::EventKind::Compute: return QColor(0x3B, 0x82, 0xF6);
    case trace::EventKind::Transfer: return QColor(0x10, 0xB9, 0x81);
    case trace::EventKind::Wait: return QColor(0xEF, 0x44, 0x44);
    case trace::EventKind::Barrier: return QColor(0x9C, 0xA3, 0xAF);
    }
    return QColor(0x9C, 0xA3, 0xAF);
}

QColor eventColor(ColorMode mode, std::int32_t block, trace::EventKind kind) {
    if (mode == ColorMode::Kind)
        return kindColor(kind);
    if (kind == trace::EventKind::Barrier || block < 0)
        return QColor(0x9C, 0xA3, 0xAF);
    QColor color = graph::blockColor(block);
    if (kind == trace::EventKind::Wait)
        color = color.lighter(165);
    return color;
}

} // namespace strata::views::timeline
