#include "views/timeline/FramePainter.h"

#include "views/Format.h"

#include <QFontMetrics>
#include <QPainter>
#include <algorithm>
#include <array>

namespace strata::views::timeline {

namespace {

using strata::timeline::DrawItem;
using strata::timeline::FrameLane;
using strata::timeline::LaneKind;

constexpr int kKinds = 4;
constexpr int kBlockColours = 10; // graph::blockColor cycles through ten hues

// The fills of one paint, looked up instead of made per item.
class Palette {
  public:
    explicit Palette(ColorMode mode) : m_mode(mode) {
        for (int b = 0; b <= kBlockColours; ++b)
            for (int k = 0; k < kKinds; ++k)
                for (int folded = 0; folded < 2; ++folded) {
                    const QColor c = eventColor(mode, b == kBlockColours ? -1 : b, static_cast<trace::EventKind>(k));
                    m_fill[static_cast<std::size_t>(folded)][static_cast<std::size_t>(b)][static_cast<std::size_t>(k)] =
                        folded ? c.darker(112) : c;
                }
    }
    // A fold is drawn a shade darker than a single event.
    const QColor& fill(std::int32_t block, trace::EventKind kind, bool folded = false) const {
        const int b = m_mode == ColorMode::Kind || block < 0 ? kBlockColours : block % kBlockColours;
        return m_fill[folded ? 1 : 0][static_cast<std::size_t>(b)][static_cast<std::size_t>(kind)];
    }

  private:
    ColorMode m_mode;
    std::array<std::array<std::array<QColor, kKinds>, kBlockColours + 1>, 2> m_fill;
};

QString opText(const trace::Trace& tr, const trace::Event& e) {
    const std::string_view name = tr.opName(e);
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

bool darkFill(const QColor& c) { return c.lightness() < 150; }

} // namespace

void paintFrame(QPainter& painter, const QRectF& area, const strata::timeline::Frame& frame,
                const strata::timeline::TimelineData& data, const std::vector<strata::timeline::Row>& rows,
                const RowGeometry& geometry, const TimelineStyle& style, const PaintOptions& options) {
    painter.save();
    painter.setClipRect(area);
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.fillRect(area, style.background);

    // Row bands: every other core shaded, a line under each core's last row.
    const auto [firstRow, lastRow] = geometry.visible(options.scrollY, options.scrollY + area.height());
    const auto rowTop = [&](std::size_t r) { return area.top() + geometry.top[r] - options.scrollY; };
    for (std::size_t r = firstRow; r < lastRow; ++r) {
        const double y = rowTop(r);
        const double h = geometry.rowHeight(r);
        if (rows[r].key.core % 2 == 1)
            painter.fillRect(QRectF(area.left(), y, area.width(), h), style.groupShade);
        const bool lastOfCore = r + 1 == rows.size() || rows[r + 1].key.core != rows[r].key.core;
        if (lastOfCore) {
            painter.setPen(style.separator);
            painter.drawLine(QPointF(area.left(), y + h - 0.5), QPointF(area.right(), y + h - 0.5));
        }
    }

    const Palette palette(options.colors);
    painter.setFont(style.labelFont);
    const QFontMetrics metrics(style.labelFont);
    const double left = area.left();
    const double right = area.right();
    for (const FrameLane& lane : frame.lanes) {
        if (lane.row < firstRow || lane.row >= lastRow)
            continue;
        const bool overlay = options.rowMode == strata::timeline::RowMode::Overlaid &&
                             rows[lane.row].lanes.size() > 1 && lane.lane.trace != rows[lane.row].lanes.front().trace;
        const double y = rowTop(lane.row) + 2;
        const double h = geometry.rowHeight(lane.row) - 4;
        const auto& laneData = data.lane(lane.lane);
        const trace::Trace& tr = *data.traces()[lane.lane.trace];
        const auto span = [&](const DrawItem& item) {
            const double x0 = std::max(left + item.x0, left - 2);
            const double x1 = std::min(std::max(left + item.x1, left + item.x0 + 1), right + 2);
            return std::make_pair(x0, x1);
        };
        if (overlay) { // the other run's events as outlines over the first's
            painter.setBrush(Qt::NoBrush);
            for (const DrawItem& item : lane.items) {
                const auto [x0, x1] = span(item);
                if (x1 < left || x0 > right)
                    continue;
                painter.setPen(QPen(palette.fill(item.block, item.kind).darker(170), 1));
                painter.drawRect(QRectF(x0, y, x1 - x0, h).adjusted(0, 1, -1, -1));
            }
            continue;
        }
        // Fills, with touching items of one colour merged into one rectangle (a zoomed-out lane
        // is mostly runs of folds of one block).
        const QColor* runColor = nullptr;
        double runX0 = 0;
        double runX1 = 0;
        const auto flush = [&] {
            if (runColor)
                painter.fillRect(QRectF(runX0, y, runX1 - runX0, h), *runColor);
            runColor = nullptr;
        };
        for (const DrawItem& item : lane.items) {
            const auto [x0, x1] = span(item);
            if (x1 < left || x0 > right)
                continue;
            const QColor* color = &palette.fill(item.block, item.kind, item.folded());
            if (color == runColor && x0 <= runX1 + 0.5) {
                runX1 = std::max(runX1, x1);
                continue;
            }
            flush();
            runColor = color;
            runX0 = x0;
            runX1 = x1;
        }
        flush();
        // Words where there is room: the op of an event, the count of a fold.
        for (const DrawItem& item : lane.items) {
            const auto [x0, x1] = span(item);
            if (x1 - x0 < 40 || x1 < left || x0 > right)
                continue;
            const QString text = item.folded() ? QStringLiteral("%1 events").arg(item.count)
                                               : opText(tr, tr.events[laneData.events[item.first]]);
            if (text.isEmpty())
                continue;
            const QRectF visibleBox = QRectF(x0, y, x1 - x0, h).intersected(area).adjusted(3, 0, -3, 0);
            painter.setPen(darkFill(palette.fill(item.block, item.kind, item.folded())) ? QColor(Qt::white) : style.text);
            painter.drawText(visibleBox, Qt::AlignVCenter | Qt::AlignLeft,
                             metrics.elidedText(text, Qt::ElideRight, static_cast<int>(visibleBox.width())));
        }
        // The selected event, outlined where it is drawn (alone or inside a fold).
        if (options.selected && options.selected->first.trace == lane.lane.trace &&
            options.selected->first.lane == lane.lane.lane) {
            const std::uint32_t position = options.selected->second;
            const auto it = std::upper_bound(lane.items.begin(), lane.items.end(), position,
                                             [](std::uint32_t p, const DrawItem& item) { return p < item.first; });
            if (it != lane.items.begin() && position < std::prev(it)->first + std::prev(it)->count) {
                const DrawItem& item = *std::prev(it);
                painter.setPen(QPen(style.selection, 2));
                painter.setBrush(Qt::NoBrush);
                const double x0 = std::max(left + item.x0, left - 2);
                const double x1 = std::min(std::max(left + item.x1, x0 + 2), right + 2);
                painter.drawRect(QRectF(x0 - 1, y - 1, x1 - x0 + 2, h + 2));
            }
        }
    }
    painter.restore();
}

} // namespace strata::views::timeline
