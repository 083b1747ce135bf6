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
    clearGroups();
    m_transfers->setVisible(true);
    m_transfers->addToLegend(); // after setGroups; the caller sets whether computes are shown
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

void ErrorHistogram::clearGroups() {
    for (QCPBars* bars : m_groups)
        removePlottable(bars);
    m_groups.clear();
}

void ErrorHistogram::setGroups(const std::vector<analysis::ErrorGroup>& groups,
                               const QString& what) {
    clearGroups();
    m_transfers->data()->clear();
    m_computes->data()->clear();
    m_transfers->setVisible(false);
    m_transfers->removeFromLegend();
    m_computes->setVisible(false);
    m_computes->removeFromLegend();
    std::vector<analysis::ErrorGroup> shown(groups.begin(),
                                            groups.begin() + std::min(groups.size(), kMaxGroups));
    if (groups.size() > kMaxGroups) {
        analysis::ErrorGroup rest{"other groups", {}};
        for (std::size_t i = kMaxGroups; i < groups.size(); ++i)
            rest.errors.insert(rest.errors.end(), groups[i].errors.begin(), groups[i].errors.end());
        shown.push_back(std::move(rest));
    }
    std::vector<double> all;
    for (const auto& g : shown)
        all.insert(all.end(), g.errors.begin(), g.errors.end());
    if (all.empty()) {
        showMessage(tr("No %1 was timed in both runs").arg(what));
        return;
    }
    m_message->setVisible(false);
    double low = std::max(-1.0, analysis::quantile(all, 0.02)),
           high = analysis::quantile(all, 0.98);
    if (high - low < 0.02) {
        low -= 0.05;
        high += 0.05;
    }
    const double pad = (high - low) * 0.02;
    low -= pad;
    high += pad;
    if (!m_groupSpacing) {
        m_groupSpacing = new QCPBarsGroup(this);
        m_groupSpacing->setSpacing(0);
    }
    // Tableau 10: the groups apart at a glance, in the legend's order.
    static const QColor kColors[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b),
                                     QColor(0xe1, 0x57, 0x59), QColor(0x76, 0xb7, 0xb2),
                                     QColor(0x59, 0xa1, 0x4f), QColor(0xed, 0xc9, 0x48),
                                     QColor(0x9c, 0xa3, 0xad)};
    std::size_t top = 1;
    for (std::size_t g = 0; g < shown.size(); ++g) {
        const analysis::Histogram h = analysis::histogram(shown[g].errors, low, high, kBins);
        m_binWidth = 100 * h.width;
        auto* bars = new QCPBars(xAxis, yAxis);
        const QColor color = kColors[g % std::size(kColors)];
        bars->setBrush(color);
        bars->setPen(QPen(color.darker(130), 1));
        bars->setWidthType(QCPBars::wtPlotCoords);
        bars->setWidth(m_binWidth * 0.9 / double(shown.size()));
        bars->setBarsGroup(m_groupSpacing);
        for (std::size_t i = 0; i < h.counts.size(); ++i) {
            bars->addData(100 * h.binCentre(i), double(h.counts[i]));
            top = std::max(top, h.counts[i]);
        }
        bars->setName(QStringLiteral("%1 (%2)%3")
                          .arg(QString::fromStdString(shown[g].label))
                          .arg(shown[g].errors.size())
                          .arg(outside(h)));
        m_groups.push_back(bars);
    }
    xAxis->setRange(100 * low, 100 * high);
    yAxis->setRange(0, double(top) * 1.15);
    m_zero->setVisible(low < 0 && high > 0);
    legend->setVisible(true);
    replot(QCustomPlot::rpQueuedReplot);
}

void ErrorHistogram::showMessage(const QString& text) {
    clearGroups();
    m_transfers->data()->clear();
    m_computes->data()->clear();
    m_message->setText(wrappedMessage(text));
    m_message->setVisible(!text.isEmpty());
    m_zero->setVisible(false);
    legend->setVisible(false);
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace strata::views::transfers
