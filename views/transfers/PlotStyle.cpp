#include "views/transfers/PlotStyle.h"

#include "views/Format.h"
#include "views/timeline/TimeFormat.h"

#include <algorithm>
#include <cmath>

namespace strata::views::transfers {

QColor predictedColor() { return {0x4f, 0xa3, 0xe0}; }
QColor measuredColor() { return {0xe8, 0x8a, 0x3d}; }
QColor idealColor() { return {0x55, 0x5b, 0x66}; }

QColor pathColor(std::size_t path) {
    static const QColor palette[] = {{0x4e, 0x79, 0xa7}, {0xf2, 0x8e, 0x2b}, {0x59, 0xa1, 0x4f}, {0xe1, 0x57, 0x59},
                                     {0x76, 0xb7, 0xb2}, {0xed, 0xc9, 0x48}, {0xb0, 0x7a, 0xa1}, {0xff, 0x9d, 0xa7},
                                     {0x9c, 0x75, 0x5f}, {0xba, 0xb0, 0xac}};
    return palette[path % std::size(palette)];
}

BytesLogTicker::BytesLogTicker() {
    setLogBase(4);
    setSubTickCount(1);
    setTickCount(9); // every power of 4 over the usual 8 B .. 1 MiB
}

QString BytesLogTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    return tick >= 1 ? formatBytes(static_cast<std::uint64_t>(std::llround(tick))) : QString();
}

NanosecondsLogTicker::NanosecondsLogTicker() {
    setLogBase(10);
    setSubTickCount(8);
}

QString NanosecondsLogTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    // Ticks sit on powers of ten: "1 µs", "100 ns", not the timeline's three digits ("1.00 µs").
    static const struct {
        double ps;
        const char* unit;
    } units[] = {{1e12, "s"}, {1e9, "ms"}, {1e6, "µs"}, {1e3, "ns"}, {1, "ps"}};
    const double ps = tick * 1e3;
    for (const auto& u : units)
        if (ps >= u.ps * 0.999) return QString::number(ps / u.ps, 'g', 3) + QLatin1Char(' ') + QString::fromUtf8(u.unit);
    return timeline::formatDuration(ps);
}

void setLogAxis(QCPAxis* axis, QSharedPointer<QCPAxisTicker> ticker) {
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(ticker ? ticker : QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog));
    axis->grid()->setSubGridVisible(true);
}

void thinTicksToWidth(QCustomPlot& plot, QCPAxis* axis, int pxPerTick, int maxTicks) {
    QObject::connect(&plot, &QCustomPlot::afterLayout, axis, [&plot, axis, pxPerTick, maxTicks] {
        const int ticks = std::clamp(axis->axisRect()->width() / pxPerTick, 2, maxTicks);
        if (ticks == axis->ticker()->tickCount())
            return;
        axis->ticker()->setTickCount(ticks);
        plot.replot(QCustomPlot::rpQueuedReplot); // the axis took its ticks before this layout
    });
}

QCPTextElement* addHeading(QCustomPlot& plot, const QString& title) {
    plot.plotLayout()->insertRow(0);
    QFont font = plot.font();
    font.setPointSizeF(font.pointSizeF() + 1);
    font.setBold(true);
    auto* heading = new QCPTextElement(&plot, title, font);
    heading->setMargins(QMargins(0, 6, 0, 0));
    plot.plotLayout()->addElement(0, 0, heading);
    return heading;
}

void styleAxes(QCustomPlot& plot) {
    const QColor grid(0xE3, 0xE6, 0xEA), subGrid(0xF1, 0xF3, 0xF5), text(0x30, 0x34, 0x3A);
    for (QCPAxis* axis : {plot.xAxis, plot.yAxis}) {
        axis->grid()->setPen(QPen(grid, 1));
        axis->grid()->setSubGridPen(QPen(subGrid, 1));
        axis->grid()->setZeroLinePen(QPen(grid.darker(120), 1));
        axis->setLabelColor(text);
        axis->setTickLabelColor(text);
        axis->setBasePen(QPen(text.lighter(200), 1));
        axis->setTickPen(QPen(text.lighter(200), 1));
        axis->setSubTickPen(QPen(text.lighter(250), 1));
    }
}

void styleLegend(QCustomPlot& plot, Qt::Alignment where) {
    plot.legend->setVisible(true);
    plot.legend->setBrush(QColor(255, 255, 255, 225));
    plot.legend->setBorderPen(QPen(QColor(0xC8, 0xCD, 0xD4)));
    QFont font = plot.font();
    font.setPointSizeF(font.pointSizeF() - 1);
    plot.legend->setFont(font);
    plot.legend->setRowSpacing(-2);
    plot.axisRect()->insetLayout()->setInsetAlignment(0, where);
}

QCPItemText* messageItem(QCustomPlot& plot) {
    auto* item = new QCPItemText(&plot);
    item->position->setType(QCPItemPosition::ptAxisRectRatio);
    item->position->setCoords(0.5, 0.5);
    item->setPositionAlignment(Qt::AlignCenter);
    item->setColor(QColor(0x6A, 0x71, 0x7B));
    item->setClipToAxisRect(false);
    item->setTextAlignment(Qt::AlignCenter);
    item->setVisible(false);
    return item;
}

QString wrappedMessage(const QString& text, int maxChars) {
    QStringList lines;
    QString line;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!line.isEmpty() && line.size() + 1 + word.size() > maxChars) {
            lines << line;
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    if (!line.isEmpty())
        lines << line;
    return lines.join(QLatin1Char('\n'));
}

} // namespace strata::views::transfers
