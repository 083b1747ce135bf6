#include "views/export/RunPlots.h"

#include "trace/TraceSummary.h"
#include "views/transfers/PlotStyle.h"

#include <qcustomplot.h>

#include <QDir>
#include <QSvgGenerator>
#include <algorithm>
#include <map>

namespace strata::views::exporting {
namespace {

constexpr std::size_t kMaxBars = 30;          // the slowest blocks; the CSVs hold all

struct Series {
    const trace::Trace* trace;
    QString label;
    QColor colour;
};

std::vector<Series> seriesOf(const trace::Trace* emulated, const trace::Trace* measured) {
    std::vector<Series> s;
    if (emulated) s.push_back({emulated, QStringLiteral("predicted (emulated)"), transfers::predictedColor()});
    if (measured) s.push_back({measured, QStringLiteral("measured"), transfers::measuredColor()});
    return s;
}

void style(QCustomPlot& plot, const QString& title) {
    plot.plotLayout()->insertRow(0);
    auto* heading = new QCPTextElement(&plot, title, QFont(QStringLiteral("DejaVu Sans"), 12, QFont::Bold));
    plot.plotLayout()->addElement(0, 0, heading);
    plot.legend->setVisible(true);
    plot.legend->setBrush(QColor(255, 255, 255, 220));
    plot.axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
}

bool saveAll(QCustomPlot& plot, const QString& folder, const QString& stem, int width, int height, PlotFiles& out) {
    const QDir dir(folder);
    const QString png = stem + QStringLiteral(".png"), pdf = stem + QStringLiteral(".pdf"),
                  svg = stem + QStringLiteral(".svg");
    if (!plot.savePng(dir.filePath(png), width, height)) return out.error = png, false;
    out.names << png;
    if (!plot.savePdf(dir.filePath(pdf), width, height)) return out.error = pdf, false;
    out.names << pdf;
    QSvgGenerator generator;
    generator.setFileName(dir.filePath(svg));
    generator.setSize(QSize(width, height));
    generator.setViewBox(QRect(0, 0, width, height));
    generator.setTitle(stem);
    QCPPainter painter;
    if (!painter.begin(&generator)) return out.error = svg, false;
    plot.toPainter(&painter, width, height);
    painter.end();
    out.names << svg;
    return true;
}

// Per block: time from the block's first event to its last, predicted and measured side by side.
bool blockTimes(const std::vector<Series>& series, const QString& folder, int w, int h, PlotFiles& out) {
    std::vector<std::map<int, double>> times; // µs per block, per series
    for (const auto& s : series) {
        std::map<int, double> t;
        for (const auto& b : trace::summarize(*s.trace).blocks)
            if (b.timePs > 0) t[b.block] = double(b.timePs) * 1e-6;
        times.push_back(std::move(t));
    }
    std::vector<std::pair<double, int>> order; // by the first series' time, slowest first
    for (const auto& [block, us] : times.front()) order.push_back({us, block});
    if (order.empty()) return true;
    std::sort(order.begin(), order.end(), std::greater<>());
    order.resize(std::min(order.size(), kMaxBars));

    QCustomPlot plot;
    style(plot, QStringLiteral("Time per block (slowest %1)").arg(order.size()));
    auto* group = new QCPBarsGroup(&plot);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (std::size_t i = 0; i < order.size(); ++i) ticker->addTick(double(i), QStringLiteral("B%1").arg(order[i].second));
    plot.xAxis->setTicker(ticker);
    plot.xAxis->setTickLabelRotation(60);
    plot.xAxis->setLabel(QStringLiteral("block"));
    plot.yAxis->setLabel(QStringLiteral("time (µs)"));
    double top = 0;
    for (std::size_t k = 0; k < series.size(); ++k) {
        auto* bars = new QCPBars(plot.xAxis, plot.yAxis);
        bars->setName(series[k].label);
        bars->setBrush(series[k].colour);
        bars->setPen(series[k].colour.darker(130));
        bars->setWidth(0.8 / double(series.size()));
        bars->setBarsGroup(group);
        for (std::size_t i = 0; i < order.size(); ++i) {
            const auto it = times[k].find(order[i].second);
            const double v = it == times[k].end() ? 0 : it->second;
            bars->addData(double(i), v);
            top = std::max(top, v);
        }
    }
    plot.xAxis->setRange(-0.6, double(order.size()) - 0.4);
    plot.yAxis->setRange(0, top * 1.1);
    return saveAll(plot, folder, QStringLiteral("block_times"), w, h, out);
}

// Every transfer as a point: its size against the throughput it achieved (bytes over duration).
bool transferThroughput(const std::vector<Series>& series, const QString& folder, int w, int h, PlotFiles& out) {
    QCustomPlot plot;
    style(plot, QStringLiteral("Transfer throughput vs size"));
    transfers::setLogAxis(plot.xAxis, QSharedPointer<QCPAxisTicker>(new transfers::BytesLogTicker));
    transfers::setLogAxis(plot.yAxis);
    plot.xAxis->setLabel(QStringLiteral("transfer size"));
    plot.yAxis->setLabel(QStringLiteral("throughput (GB/s)"));
    bool any = false;
    for (const auto& s : series) {
        auto* graph = plot.addGraph();
        graph->setName(s.label);
        graph->setLineStyle(QCPGraph::lsNone);
        QColor c = s.colour;
        c.setAlpha(140);
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, c, 4));
        for (const auto& e : s.trace->events)
            if (e.kind == trace::EventKind::Transfer && e.bytes > 0 && e.durationPs() > 0) {
                graph->addData(double(e.bytes), double(e.bytes) * 1e3 / double(e.durationPs())); // B/ps*1e3 = GB/s
                any = true;
            }
    }
    if (!any) return true;
    plot.rescaleAxes();
    plot.xAxis->scaleRange(1.2);
    plot.yAxis->scaleRange(1.5);
    return saveAll(plot, folder, QStringLiteral("transfer_throughput"), w, h, out);
}

} // namespace

PlotFiles writeRunPlots(const trace::Trace* emulated, const trace::Trace* measured, const QString& folder, int width,
                        int height) {
    PlotFiles out;
    const auto series = seriesOf(emulated, measured);
    if (series.empty()) return out;
    if (blockTimes(series, folder, width, height, out)) transferThroughput(series, folder, width, height, out);
    return out;
}

} // namespace strata::views::exporting
