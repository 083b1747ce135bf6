#pragma once
// What the Transfers tab's plots (and the export bundle's) share: predicted and measured colours
// (the timeline's), a colour per transfer path, log axes labelled in bytes or in time units, a
// heading, a legend, and a message shown over a plot with nothing to draw.

#include <QColor>
#include <QString>
#include <cstddef>
#include <qcustomplot.h>

namespace strata::views::transfers {

QColor predictedColor(); // the timeline's emulated blue
QColor measuredColor();  // and its measured orange
QColor idealColor();
// A qualitative palette (Tableau 10) by path index: paths read the same in every plot.
QColor pathColor(std::size_t path);

// Log ticks at powers of `base` labelled as byte counts: "64 B", "4 KiB", "1 MiB".
class BytesLogTicker : public QCPAxisTickerLog {
  public:
    BytesLogTicker();
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
};

// Log ticks at powers of 10 of a value in nanoseconds, labelled in time units: "100 ns", "1 µs".
class NanosecondsLogTicker : public QCPAxisTickerLog {
  public:
    NanosecondsLogTicker();
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
};

// Log scale with `ticker` (a QCPAxisTickerLog when null), sub-grid shown.
void setLogAxis(QCPAxis* axis, QSharedPointer<QCPAxisTicker> ticker = {});

// Keeps `axis`'s tick count at about one per `pxPerTick` pixels of the axis rect's width (at
// most `maxTicks`), re-picked whenever the plot is laid out, so labels never overlap.
void thinTicksToWidth(QCustomPlot& plot, QCPAxis* axis, int pxPerTick, int maxTicks);

// The plot's look: a bold heading row above the axis rect, fonts, grid, legend top-left or as given.
QCPTextElement* addHeading(QCustomPlot& plot, const QString& title);
void styleAxes(QCustomPlot& plot);
void styleLegend(QCustomPlot& plot, Qt::Alignment where = Qt::AlignTop | Qt::AlignLeft);

// A centred grey message item over the axis rect (empty text hides it); returns the item.
QCPItemText* messageItem(QCustomPlot& plot);
// `text` broken at spaces into centred lines of at most `maxChars` characters, so a message
// fits a plot of the smallest width the tab gives it.
QString wrappedMessage(const QString& text, int maxChars = 42);

} // namespace strata::views::transfers
