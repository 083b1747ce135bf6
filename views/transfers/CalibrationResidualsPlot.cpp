#include "views/transfers/CalibrationResidualsPlot.h"

#include "views/transfers/PlotStyle.h"

#include <algorithm>
#include <cmath>

namespace strata::views::transfers {

CalibrationResidualsPlot::CalibrationResidualsPlot(QWidget* parent) : QCustomPlot(parent) {
    setObjectName(QStringLiteral("calibrationResidualsPlot"));
    m_heading = addHeading(*this, QString());
    styleAxes(*this);
    setLogAxis(xAxis, QSharedPointer<QCPAxisTicker>(new BytesLogTicker));
    setLogAxis(yAxis);
    xAxis->setLabel(tr("bytes per transfer"));
    yAxis->setLabel(tr("throughput (GB/s)"));
    styleLegend(*this, Qt::AlignBottom | Qt::AlignRight);
    m_measured = addGraph();
    m_measured->setName(tr("measured"));
    m_measured->setLineStyle(QCPGraph::lsNone);
    QColor dot = measuredColor();
    dot.setAlpha(170);
    m_measured->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, dot.darker(120), dot, 5));
    m_before = addGraph();
    m_before->setName(tr("target before"));
    m_before->setPen(QPen(idealColor(), 1.8, Qt::DashLine));
    m_after = addGraph();
    m_after->setName(tr("calibrated fit"));
    m_after->setPen(QPen(predictedColor().darker(115), 2.2));
    setInteractions(QCP::iRangeZoom | QCP::iRangeDrag);
}

void CalibrationResidualsPlot::setPath(const PathResiduals& path) {
    for (QCPGraph* g : {m_measured, m_before, m_after}) g->data()->clear();
    m_rmsBefore = analysis::rmsRelativeResidual(path.samples, path.before);
    m_rmsAfter = analysis::rmsRelativeResidual(path.samples, path.after);
    m_heading->setText(tr("%1 \u2014 RMS relative residual %2% before, %3% after")
                           .arg(path.path)
                           .arg(100 * m_rmsBefore, 0, 'f', 1)
                           .arg(100 * m_rmsAfter, 0, 'f', 1));
    auto gbps = [&](double bytes, double cycles) { return cycles > 0 ? bytes * path.clockHz / cycles / 1e9 : 0.0; };
    double low = 0, high = 0;
    std::vector<std::pair<double, double>> points;
    for (const auto& s : path.samples)
        if (s.bytes > 0 && s.cycles > 0) points.push_back({s.bytes, gbps(s.bytes, s.cycles)});
    std::sort(points.begin(), points.end());
    for (const auto& [b, g] : points) m_measured->addData(b, g);
    if (!points.empty()) {
        low = points.front().first;
        high = points.back().first;
    }
    if (high <= low) {
        replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    // The models as curves: 64 sizes, evenly spaced in log.
    for (int i = 0; i <= 64; ++i) {
        const double bytes = low * std::pow(high / low, i / 64.0);
        m_before->addData(bytes, gbps(bytes, path.before.cycles(bytes)));
        m_after->addData(bytes, gbps(bytes, path.after.cycles(bytes)));
    }
    rescaleAxes();
    xAxis->setRange(low / 1.5, high * 1.5);
    const QCPRange y = yAxis->range();
    yAxis->setRange(std::max(1e-6, y.lower / 2), y.upper * 2);
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace strata::views::transfers
