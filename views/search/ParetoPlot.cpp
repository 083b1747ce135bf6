#include "views/search/ParetoPlot.h"

#include "views/transfers/PlotStyle.h"

#include <QMouseEvent>
#include <algorithm>
#include <cmath>

namespace strata::views::search {

using namespace strata::views::transfers;

namespace {

constexpr double kClickRadiusPx = 8;
constexpr double kMiB = 1024.0 * 1024.0;

} // namespace

ParetoPlot::ParetoPlot(QWidget* parent) : QCustomPlot(parent) {
    setObjectName(QStringLiteral("paretoPlot"));
    addHeading(*this, tr("Pareto front (click a point to choose it)"));
    styleAxes(*this);
    xAxis->setLabel(tr("predicted time (\u00b5s)"));
    yAxis->setLabel(tr("DRAM traffic (MiB)"));
    m_front = addGraph();
    m_front->setLineStyle(QCPGraph::lsStepLeft);
    m_front->setPen(QPen(QColor(0, 0, 0, 60), 1, Qt::DotLine));
    m_front->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, predictedColor().darker(120),
                                             predictedColor(), 7));
    m_chosenGraph = addGraph();
    m_chosenGraph->setLineStyle(QCPGraph::lsNone);
    m_chosenGraph->setScatterStyle(QCPScatterStyle(
        QCPScatterStyle::ssCircle, QPen(measuredColor().darker(120), 2.5), measuredColor(), 13));
    setMinimumSize(320, 200);
}

void ParetoPlot::setFront(std::vector<std::pair<double, double>> points) {
    m_points = std::move(points);
    m_front->data()->clear();
    for (const auto& [ns, bytes] : m_points)
        m_front->addData(ns / 1e3, bytes / kMiB);
    if (m_chosen >= pointCount())
        m_chosen = -1;
    setChosen(m_chosen);
    bool found = false;
    const QCPRange x = m_front->data()->keyRange(found);
    const QCPRange y = m_front->data()->valueRange(found);
    if (found) {
        const double padX = std::max((x.upper - x.lower) * 0.1, x.upper * 0.02 + 1e-9);
        const double padY = std::max((y.upper - y.lower) * 0.1, y.upper * 0.02 + 1e-9);
        xAxis->setRange(std::max(0.0, x.lower - padX), x.upper + padX);
        yAxis->setRange(std::max(0.0, y.lower - padY), y.upper + padY);
    }
    replot(QCustomPlot::rpQueuedReplot);
}

void ParetoPlot::setChosen(int index) {
    m_chosen = index >= 0 && index < pointCount() ? index : -1;
    m_chosenGraph->data()->clear();
    if (m_chosen >= 0)
        m_chosenGraph->addData(m_points[m_chosen].first / 1e3, m_points[m_chosen].second / kMiB);
    replot(QCustomPlot::rpQueuedReplot);
}

QPointF ParetoPlot::pixelOf(int index) const {
    if (index < 0 || index >= pointCount())
        return {};
    return {xAxis->coordToPixel(m_points[index].first / 1e3),
            yAxis->coordToPixel(m_points[index].second / kMiB)};
}

int ParetoPlot::pointAt(const QPointF& pixel) const {
    int nearest = -1;
    double nearestDistance = kClickRadiusPx;
    for (int i = 0; i < pointCount(); ++i) {
        const QPointF d = pixelOf(i) - pixel;
        const double distance = std::hypot(d.x(), d.y());
        if (distance <= nearestDistance) {
            nearest = i;
            nearestDistance = distance;
        }
    }
    return nearest;
}

void ParetoPlot::mouseReleaseEvent(QMouseEvent* event) {
    QCustomPlot::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton)
        return;
    const int index = pointAt(event->position());
    if (index < 0)
        return;
    setChosen(index);
    emit pointClicked(index);
}

} // namespace strata::views::search
