#include "views/transfers/ErrorHistogram.h"

#include "views/transfers/PlotStyle.h"

#include <algorithm>
#include <cmath>

namespace strata::views::transfers {
namespace {

constexpr int kBins = 30;

QString outside(const analysis::Histogram& h) {
    if (!h.below && !h.above) return {};
    return QStringLiteral(" \u2014 %1 below, %2 above the range").arg(h.below).arg(h.above);
}

} // namespace

ErrorHistogram::ErrorHistogram(QWidget* parent) : QCustomPlot(parent) {
    setObjectName(QStringLiteral("errorHistogram"));
    addHeading(*this, tr("Prediction error, (predicted \u2212 measured) / measured"));
    styleAxes(*this);
    xAxis->setLabel(tr("relative error (%)"));
    yAxis->setLabel(tr("events"));
    styleLegend(*this, Qt::AlignTop | Qt::AlignRight);
    auto* group = new QCPBarsGroup(this);
    group->setSpacing(0);
    m_transfers = new QCPBars(xAxis, yAxis);
    m_computes = new QCPBars(xAxis, yAxis);
    for (auto [bars, color] : {std::pair{m_transfers, QColor(0x4e, 0x79, 0xa7)}, std::pair{m_computes, QColor(0x9c, 0xa3, 0xad)}}) {
        bars->setBrush(color);
        bars->setPen(QPen(color.darker(130), 1));
        bars->setBarsGroup(group);
        bars->setWidthType(QCPBars::wtPlotCoords);
    }
    m_zero = new QCPItemStraightLine(this);
    m_zero->point1->setCoords(0, 0);
    m_zero->point2->setCoords(0, 1);
    m_zero->setPen(QPen(idealColor(), 1.2, Qt::DashLine));
    m_message = messageItem(*this);
    setInteractions(QCP::iRangeZoom | QCP::iRangeDrag);
    axisRect()->setRangeZoom(Qt::Horizontal);
    axisRect()->setRangeDrag(Qt::Horizontal);
}

void ErrorHistogram::setErrors(const std::vector<double>& transferErrors, const std::vector<double>& computeErrors) {
    m_transfers->data()->clear();
    m_computes->data()->clear();
    if (transferErrors.empty() && computeErrors.empty()) {
        showMessage(tr("No event was timed in both runs"));
        return;
    }
    m_message->setVisible(false);
    std::vector<double> all = transferErrors;
    all.insert(all.end(), computeErrors.begin(), computeErrors.end());
    // In percent; relative errors cannot go below -100%.
    double low = std::max(-1.0, analysis::quantile(all, 0.02)), high = analysis::quantile(all, 0.98);
    if (high - low < 0.02) {
        low -= 0.05;
        high += 0.05;
    }
    const double pad = (high - low) * 0.02;
    low -= pad;
    high += pad;
    const analysis::Histogram t = analysis::histogram(transferErrors, low, high, kBins);
    const analysis::Histogram c = analysis::histogram(computeErrors, low, high, kBins);
    m_binWidth = 100 * t.width;
    m_transfers->setWidth(m_binWidth * (m_computes->visible() ? 0.45 : 0.9));
    m_computes->setWidth(m_binWidth * 0.45);
    for (auto [bars, h] : {std::pair{m_transfers, &t}, std::pair{m_computes, &c}}) {
        for (std::size_t i = 0; i < h->counts.size(); ++i) bars->addData(100 * h->binCentre(i), double(h->counts[i]));
    }
    m_transfers->setName(tr("transfers (%1)%2").arg(transferErrors.size()).arg(outside(t)));
    m_computes->setName(tr("computes (%1)%2").arg(computeErrors.size()).arg(outside(c)));
    xAxis->setRange(100 * low, 100 * high);
    std::size_t top = 1;
    for (auto* h : {&t, &c})
        for (std::size_t n : h->counts) top = std::max(top, n);
    yAxis->setRange(0, double(top) * 1.15);
    m_zero->setVisible(low < 0 && high > 0);
    legend->setVisible(true);
    replot(QCustomPlot::rpQueuedReplot);
}

void ErrorHistogram::setComputesShown(bool shown) {
    m_computes->setVisible(shown);
    if (shown)
        m_computes->addToLegend(); // no-op when already listed
    else
        m_computes->removeFromLegend();
    m_transfers->setWidth(m_binWidth * (shown ? 0.45 : 0.9));
    m_computes->setWidth(m_binWidth * 0.45);
    replot(QCustomPlot::rpQueuedReplot);
}

void ErrorHistogram::showMessage(const QString& text) {
    m_transfers->data()->clear();
    m_computes->data()->clear();
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
    m_zero->setVisible(false);
    legend->setVisible(false);
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace strata::views::transfers
