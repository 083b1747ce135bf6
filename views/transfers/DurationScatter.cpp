#include "views/transfers/DurationScatter.h"

#include "views/Format.h"
#include "views/timeline/TimeFormat.h"
#include "views/transfers/PlotStyle.h"

#include <QToolTip>

#include <algorithm>
#include <numeric>

namespace strata::views::transfers {

DurationScatter::DurationScatter(QWidget* parent) : QCustomPlot(parent) {
    setObjectName(QStringLiteral("durationScatter"));
    addHeading(*this, tr("Predicted vs measured transfer duration"));
    styleAxes(*this);
    setLogAxis(xAxis, QSharedPointer<QCPAxisTicker>(new NanosecondsLogTicker));
    setLogAxis(yAxis, QSharedPointer<QCPAxisTicker>(new NanosecondsLogTicker));
    xAxis->setLabel(tr("measured duration (above the diagonal: predicted too slow; below: too fast)"));
    yAxis->setLabel(tr("predicted duration"));
    styleLegend(*this);
    m_diagonal = new QCPItemStraightLine(this);
    m_diagonal->point1->setCoords(1, 1);
    m_diagonal->point2->setCoords(10, 10);
    m_diagonal->setPen(QPen(idealColor(), 1.2, Qt::DashLine));
    m_diagonal->setSelectable(false);
    m_message = messageItem(*this);
    // Left drag draws the selection box; the wheel zooms.
    setInteractions(QCP::iRangeZoom | QCP::iSelectPlottables | QCP::iMultiSelect);
    setSelectionRectMode(QCP::srmSelect);
    selectionRect()->setPen(QPen(QColor(0x1F, 0x6F, 0xEB), 1, Qt::DashLine));
    selectionRect()->setBrush(QColor(0x1F, 0x6F, 0xEB, 0x22));
    connect(this, &QCustomPlot::selectionChangedByUser, this, &DurationScatter::onSelectionChanged);
}

void DurationScatter::setEvents(const std::vector<analysis::MatchedEvent>& events, const std::vector<std::string>& pathNames) {
    clearGraphs();
    m_series.clear();
    m_message->setVisible(false);
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < events.size(); ++i)
        if (events[i].kind == trace::EventKind::Transfer && events[i].predictedNs > 0 && events[i].measuredNs > 0)
            order.push_back(i);
    if (order.empty()) {
        showMessage(tr("No transfer was timed in both runs"));
        return;
    }
    // QCPGraph keeps its data sorted by key: add each path's points by measured duration.
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return events[a].measuredNs < events[b].measuredNs; });
    // One series per path, created in path order so the legend lists paths as the target does.
    std::vector<std::uint16_t> paths;
    for (std::size_t i : order) paths.push_back(events[i].path);
    std::sort(paths.begin(), paths.end());
    paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
    for (std::uint16_t path : paths) {
        QCPGraph* g = addGraph();
        const QString name = path < pathNames.size() ? QString::fromStdString(pathNames[path]) : tr("path %1").arg(path);
        QColor fill = pathColor(path);
        g->setName(name);
        g->setLineStyle(QCPGraph::lsNone);
        const QColor edge = fill.darker(130);
        fill.setAlpha(150);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, edge, fill, 6));
        g->setSelectable(QCP::stMultipleDataRanges);
        auto* decorator = new QCPSelectionDecorator;
        decorator->setPen(QPen(QColor(0x1F, 0x6F, 0xEB), 2));
        decorator->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(0x1F, 0x6F, 0xEB), 2), Qt::NoBrush, 9),
                                   QCPScatterStyle::spAll);
        g->setSelectionDecorator(decorator);
        m_series.push_back({path, g, {}});
    }
    double low = 1e300, high = 0;
    for (std::size_t i : order) {
        const analysis::MatchedEvent& e = events[i];
        auto it = std::find_if(m_series.begin(), m_series.end(), [&](const PathSeries& s) { return s.path == e.path; });
        it->graph->addData(e.measuredNs, e.predictedNs);
        it->ids.push_back(e.id);
        it->events.push_back(e);
        low = std::min({low, e.measuredNs, e.predictedNs});
        high = std::max({high, e.measuredNs, e.predictedNs});
    }
    for (const PathSeries& s : m_series) s.graph->setName(QStringLiteral("%1 (%2)").arg(s.graph->name()).arg(s.ids.size()));
    // The same range on both axes keeps the diagonal at 45 degrees' meaning: equal decades.
    xAxis->setRange(low / 1.6, high * 1.6);
    yAxis->setRange(low / 1.6, high * 1.6);
    m_diagonal->setVisible(true);
    legend->setVisible(true);
    replot(QCustomPlot::rpQueuedReplot);
}

void DurationScatter::showMessage(const QString& text) {
    clearGraphs();
    m_series.clear();
    m_message->setText(wrappedMessage(text));
    m_message->setVisible(!text.isEmpty());
    m_diagonal->setVisible(false);
    legend->setVisible(false);
    xAxis->setRange(1, 1e6);
    yAxis->setRange(1, 1e6);
    replot(QCustomPlot::rpQueuedReplot);
}

QCPGraph* DurationScatter::pathGraph(std::uint16_t path) const {
    for (const PathSeries& s : m_series)
        if (s.path == path) return s.graph;
    return nullptr;
}

quint32 DurationScatter::idAt(const QCPGraph* graph, int dataIndex) const {
    for (const PathSeries& s : m_series)
        if (s.graph == graph && dataIndex >= 0 && static_cast<std::size_t>(dataIndex) < s.ids.size())
            return s.ids[static_cast<std::size_t>(dataIndex)];
    return 0;
}

std::size_t DurationScatter::pointCount() const {
    std::size_t n = 0;
    for (const PathSeries& s : m_series) n += s.ids.size();
    return n;
}

void DurationScatter::selectBox(double x0, double y0, double x1, double y1) {
    const QRectF box(QPointF(xAxis->coordToPixel(x0), yAxis->coordToPixel(y0)),
                     QPointF(xAxis->coordToPixel(x1), yAxis->coordToPixel(y1)));
    for (const PathSeries& s : m_series) s.graph->setSelection(s.graph->selectTestRect(box.normalized(), false));
    onSelectionChanged();
}

void DurationScatter::onSelectionChanged() {
    QVector<quint32> ids;
    for (const PathSeries& s : m_series)
        for (const QCPDataRange& range : s.graph->selection().dataRanges())
            for (int i = range.begin(); i < range.end(); ++i) ids << s.ids[static_cast<std::size_t>(i)];
    replot(QCustomPlot::rpQueuedReplot);
    if (!ids.isEmpty()) emit eventsSelected(ids);
}

QString DurationScatter::toolTipAt(const QPointF& pos) const {
    constexpr double kReachPx = 6;
    const PathSeries* best = nullptr;
    std::size_t bestIndex = 0;
    double bestDistance = kReachPx * kReachPx;
    for (const PathSeries& s : m_series)
        for (std::size_t i = 0; i < s.events.size(); ++i) {
            const double dx = xAxis->coordToPixel(s.events[i].measuredNs) - pos.x();
            const double dy = yAxis->coordToPixel(s.events[i].predictedNs) - pos.y();
            if (dx * dx + dy * dy <= bestDistance) {
                bestDistance = dx * dx + dy * dy;
                best = &s;
                bestIndex = i;
            }
        }
    if (!best) return {};
    const analysis::MatchedEvent& e = best->events[bestIndex];
    return tr("<b>transfer %1</b> on %2, %3, block B%4<br>predicted %5, measured %6 (%7%8%)")
        .arg(e.id)
        .arg(best->graph->name().section(QLatin1Char(' '), 0, 0), formatBytes(e.bytes))
        .arg(e.block)
        .arg(timeline::formatDuration(e.predictedNs * 1e3), timeline::formatDuration(e.measuredNs * 1e3),
             e.error > 0 ? QStringLiteral("+") : QString())
        .arg(100 * e.error, 0, 'f', 1);
}

void DurationScatter::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    if (event->buttons() != Qt::NoButton) return; // drawing a box
    const QString text = toolTipAt(event->position());
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

} // namespace strata::views::transfers
