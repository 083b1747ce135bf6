#include "views/search/SearchHistoryPlot.h"

#include "views/transfers/PlotStyle.h"

#include <algorithm>

namespace strata::views::search {

using namespace strata::views::transfers;

SearchHistoryPlot::SearchHistoryPlot(QWidget* parent) : QCustomPlot(parent) {
    setObjectName(QStringLiteral("searchHistoryPlot"));
    addHeading(*this, tr("Best predicted time"));
    styleAxes(*this);
    xAxis->setLabel(tr("candidates evaluated"));
    yAxis->setLabel(tr("predicted time (\u00b5s)"));
    m_best = addGraph();
    m_best->setName(tr("best so far"));
    m_best->setLineStyle(QCPGraph::lsStepLeft);
    m_best->setPen(QPen(predictedColor(), 2));
    m_baseline = new QCPItemStraightLine(this);
    m_baseline->setPen(QPen(idealColor(), 1.5, Qt::DashLine));
    m_baseline->setVisible(false);
    setMinimumSize(320, 200);
}

void SearchHistoryPlot::clear() {
    m_best->data()->clear();
    m_baseline->setVisible(false);
    m_baselineNs = 0;
    replot(QCustomPlot::rpQueuedReplot);
}

void SearchHistoryPlot::addPoint(double evaluated, double bestNs) {
    m_best->addData(evaluated, bestNs / 1e3);
    rescale();
}

void SearchHistoryPlot::setBaseline(double bestNs) {
    m_baselineNs = bestNs;
    m_baseline->point1->setCoords(0, bestNs / 1e3);
    m_baseline->point2->setCoords(1, bestNs / 1e3);
    m_baseline->setVisible(bestNs > 0);
    rescale();
}

void SearchHistoryPlot::rescale() {
    bool found = false;
    const QCPRange x = m_best->data()->keyRange(found);
    const QCPRange y = m_best->data()->valueRange(found);
    double low = found ? y.lower : m_baselineNs / 1e3;
    double high = found ? y.upper : m_baselineNs / 1e3;
    if (m_baselineNs > 0)
        high = std::max(high, m_baselineNs / 1e3);
    const double pad = std::max((high - low) * 0.1, high * 0.02 + 1e-9);
    yAxis->setRange(std::max(0.0, low - pad), high + pad);
    xAxis->setRange(0, std::max(1.0, found ? x.upper * 1.05 : 1.0));
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace strata::views::search
