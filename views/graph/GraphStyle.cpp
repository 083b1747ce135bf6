#include "views/graph/GraphStyle.h"

#include <QApplication>
#include <QFontMetricsF>
#include <array>

namespace strata::views::graph {

GraphStyle GraphStyle::standard() {
    GraphStyle style;
    const QFont base = QApplication::font();
    style.bodyFont = base;
    style.bodyFont.setPixelSize(11);
    style.titleFont = base;
    style.titleFont.setPixelSize(12);
    style.titleFont.setBold(true);
    style.badgeFont = base;
    style.badgeFont.setPixelSize(11);
    style.badgeFont.setBold(true);
    style.metrics.lineHeight = 15;
    style.metrics.paddingX = 10;
    style.metrics.paddingY = 6;
    style.metrics.minWidth = 110;
    style.metrics.maxWidth = 230;
    style.metrics.clusterLabelWidth = 190;
    style.metrics.clusterLabelHeight = 24;
    return style;
}

layout::TextMetrics GraphStyle::textMetrics() const {
    layout::TextMetrics out = metrics;
    // QFontMetricsF is built per call, in the calling thread: font engines are per thread.
    out.measure = [title = titleFont, body = bodyFont](std::string_view text,
                                                       layout::TextRole role) {
        const QFontMetricsF fm(role == layout::TextRole::Title ? title : body);
        return fm.horizontalAdvance(
            QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())));
    };
    return out;
}

QColor blockColor(int block) {
    // Hues spread around the wheel; medium saturation so a 12 % fill stays light.
    static constexpr std::array<QRgb, 10> kPalette = {
        0x3B82F6, 0x10B981, 0xF59E0B, 0x8B5CF6, 0xEF4444,
        0x06B6D4, 0x84CC16, 0xEC4899, 0x6366F1, 0xF97316,
    };
    const auto index = static_cast<std::size_t>(block < 0 ? 0 : block) % kPalette.size();
    return QColor::fromRgb(kPalette[index]);
}

} // namespace strata::views::graph
