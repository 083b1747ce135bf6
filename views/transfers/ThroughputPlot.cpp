#include "views/transfers/ThroughputPlot.h"

#include "views/transfers/PlotStyle.h"

#include <algorithm>

namespace strata::views::transfers {

ThroughputPlot::ThroughputPlot(QWidget* parent) : QCustomPlot(parent) {
    setObjectName(QStringLiteral("throughputPlot"));
    m_heading = addHeading(*this, tr("Throughput vs transfer size"));
    styleAxes(*this);
    setLogAxis(xAxis, QSharedPointer<QCPAxisTicker>(new BytesLogTicker));
    thinTicksToWidth(*this, xAxis, 55, 9);
    xAxis->setLabel(tr("bytes per transfer"));
    yAxis->setLabel(tr("throughput (GB/s)"));
    styleLegend(*this);
    m_message = messageItem(*this);
    setInteractions(QCP::iRangeZoom | QCP::iRangeDrag);
    setNoAntialiasingOnDrag(true);
}

QCPGraph* ThroughputPlot::addSeries(const QString& name, const QColor& color, Qt::PenStyle style,
                                    QCPScatterStyle::ScatterShape shape, double width) {
    QCPGraph* g = addGraph();
    g->setName(name);
    QPen pen(color, width, style);
    g->setPen(pen);
    const bool filled = style == Qt::SolidLine;
    g->setScatterStyle(QCPScatterStyle(shape, color, filled ? color : QColor(Qt::white), 6));
    return g;
}

void ThroughputPlot::setRunThroughput(const std::vector<analysis::PathThroughput>& predicted,
                                      const std::vector<analysis::PathThroughput>& measured) {
    clearGraphs();
    m_heading->setText(tr("Throughput vs size (this model's transfers)"));
    m_message->setVisible(false);
    auto plotPaths = [&](const std::vector<analysis::PathThroughput>& paths, const QString& what, bool solid) {
        for (const auto& p : paths) {
            QCPGraph* g = addSeries(QStringLiteral("%1 %2").arg(QString::fromStdString(p.name), what), pathColor(p.path),
                                    solid ? Qt::SolidLine : Qt::DashLine, solid ? QCPScatterStyle::ssDisc : QCPScatterStyle::ssCircle);
            for (const auto& b : p.bins) g->addData(b.meanBytes, b.gbps);
        }
    };
    plotPaths(predicted, tr("predicted"), false);
    plotPaths(measured, tr("measured"), true);
    const auto ideal = analysis::sequentialIdeal(measured.empty() ? predicted : measured);
    if (!ideal.empty()) {
        QCPGraph* g = addSeries(measured.empty() ? tr("sequential ideal (predicted)") : tr("sequential ideal (measured)"),
                                idealColor(), Qt::DotLine, QCPScatterStyle::ssNone, 2);
        for (const auto& b : ideal) g->addData(b.meanBytes, b.gbps);
    }
    if (predicted.empty() && measured.empty()) {
        showMessage(tr("No transfers in this run"));
        return;
    }
    finish();
}

void ThroughputPlot::setMicrobench(const emulator::MicrobenchResult& predicted, const emulator::MicrobenchResult* measured) {
    clearGraphs();
    QString kinds;
    for (const auto& k : predicted.kinds) kinds += (kinds.isEmpty() ? QString() : QStringLiteral(" / ")) + QString::fromStdString(k);
    m_heading->setText(tr("Throughput vs size (microbenchmark: %1 alternating)").arg(kinds));
    m_message->setVisible(false);
    auto series = [&](const emulator::MicrobenchResult& r, auto value) {
        QVector<double> x, y;
        for (const auto& row : r.rows) {
            x << double(row.bytes);
            y << value(row);
        }
        return std::pair{x, y};
    };
    auto add = [&](const QString& name, const QColor& color, Qt::PenStyle style, QCPScatterStyle::ScatterShape shape,
                   const std::pair<QVector<double>, QVector<double>>& xy, double width = 2.2) {
        addSeries(name, color, style, shape, width)->setData(xy.first, xy.second, true);
    };
    for (std::size_t k = 0; k < predicted.kinds.size(); ++k) {
        const QString kind = QString::fromStdString(predicted.kinds[k]);
        QColor c = pathColor(k);
        c.setAlpha(150);
        add(tr("%1 alone, predicted").arg(kind), c, Qt::DashLine, QCPScatterStyle::ssNone,
            series(predicted, [k](const auto& row) { return k < row.aloneGBps.size() ? row.aloneGBps[k] : 0.0; }), 1.2);
        if (measured)
            add(tr("%1 alone, measured").arg(kind), c, Qt::SolidLine, QCPScatterStyle::ssNone,
                series(*measured, [k](const auto& row) { return k < row.aloneGBps.size() ? row.aloneGBps[k] : 0.0; }), 1.2);
    }
    add(tr("total, predicted (emulator)"), predictedColor(), Qt::DashLine, QCPScatterStyle::ssCircle,
        series(predicted, [](const auto& row) { return row.mixedGBps; }));
    if (measured)
        add(tr("total, measured"), measuredColor(), Qt::SolidLine, QCPScatterStyle::ssDisc,
            series(*measured, [](const auto& row) { return row.mixedGBps; }));
    add(measured ? tr("sequential ideal (measured)") : tr("sequential ideal (predicted)"), idealColor(), Qt::DotLine,
        QCPScatterStyle::ssNone, series(measured ? *measured : predicted, [](const auto& row) { return row.idealGBps; }));
    if (predicted.rows.empty()) {
        showMessage(tr("The microbenchmark measured no size"));
        return;
    }
    finish();
}

void ThroughputPlot::finish() {
    legend->setVisible(true);
    rescaleAxes();
    const QCPRange x = xAxis->range();
    xAxis->setRange(x.lower / 1.5, x.upper * 1.5);
    // Headroom above the curves for the legend in the top corner: the share of the plot's height
    // the legend takes (a short plot with many series needs more), once the plot is laid out.
    const double legendPx = legend->minimumOuterSizeHint().height() + 12;
    const double plotPx = axisRect()->height();
    const double share = plotPx > 60 ? std::clamp(legendPx / plotPx, 0.3, 0.7) : 0.3;
    yAxis->setRange(0, std::max(1e-9, yAxis->range().upper / (1 - share)));
    replot(QCustomPlot::rpQueuedReplot);
}

void ThroughputPlot::showMessage(const QString& text) {
    clearGraphs();
    m_message->setText(wrappedMessage(text));
    m_message->setVisible(!text.isEmpty());
    legend->setVisible(false);
    xAxis->setRange(64, 1 << 20);
    yAxis->setRange(0, 1);
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace strata::views::transfers
