#include "views/compare/DeltaChart.h"

#include "views/graph/GraphStyle.h"
#include "views/timeline/TimeFormat.h"
#include "views/transfers/PlotStyle.h"

#include <algorithm>
#include <cmath>

namespace strata::views::compare {

namespace {

// Time ticks of a picosecond axis in the unit its tick step reads best in, signed.
class DeltaTicker : public QCPAxisTicker {
  public:
    QString getTickLabel(double tick, const QLocale&, QChar, int) override {
        const timeline::TimeUnit unit = timeline::unitForStep(m_step);
        const QString text = timeline::formatTick(std::abs(tick), m_step, unit);
        return tick > 0 ? QStringLiteral("+") + text : tick < 0 ? QStringLiteral("\u2212") + text : text;
    }

  protected:
    double getTickStep(const QCPRange& range) override {
        m_step = QCPAxisTicker::getTickStep(range);
        return m_step;
    }

  private:
    double m_step = 1;
};

QString blockLabel(const trace::BlockDelta& d) {
    const QString name = QStringLiteral("B%1").arg(d.block);
    if (d.onlyInA())
        return name + QStringLiteral(" \u00b7 only in A");
    if (d.onlyInB())
        return name + QStringLiteral(" \u00b7 only in B");
    return name;
}

} // namespace

DeltaChart::DeltaChart(QWidget* parent) : QCustomPlot(parent) {
    setObjectName(QStringLiteral("deltaChart"));
    transfers::addHeading(*this, tr("Time per block: B \u2212 A"));
    transfers::styleAxes(*this);
    QSharedPointer<QCPAxisTicker> ticker(new DeltaTicker);
    ticker->setTickCount(4); // signed labels in a narrow chart: few, so they never touch
    xAxis->setTicker(ticker);
    xAxis->setLabel(tr("B \u2212 A"));
    m_labels.reset(new QCPAxisTickerText);
    yAxis->setTicker(m_labels);
    yAxis->setSubTicks(false);
    yAxis->setTickLength(0, 0);
    yAxis->grid()->setVisible(false);
    yAxis->setRangeReversed(true); // the first (largest slowdown) on top
    m_zero = new QCPItemStraightLine(this);
    m_zero->setPen(QPen(QColor(0x5f, 0x66, 0x70), 1));
    m_zero->point1->setCoords(0, 0);
    m_zero->point2->setCoords(0, 1);
    m_message = transfers::messageItem(*this);
    connect(this, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable* plottable, int, QMouseEvent*) {
        const auto it = std::find(m_bars.begin(), m_bars.end(), plottable);
        if (it != m_bars.end())
            emit blockClicked(m_blocks[static_cast<std::size_t>(it - m_bars.begin())]);
    });
    // Row height is known once laid out; re-pick the labelled bars whenever it changes.
    connect(this, &QCustomPlot::afterLayout, this, &DeltaChart::labelBarsThatFit);
    showMessage(tr("Pick two runs to compare"));
}

QString DeltaChart::barLabel(int i) const {
    return i >= 0 && i < static_cast<int>(m_names.size()) ? m_names[static_cast<std::size_t>(i)]
                                                          : QString();
}

void DeltaChart::labelBarsThatFit() {
    if (m_names.empty())
        return;
    const double rowPx = double(axisRect()->height()) / double(m_names.size());
    const double textPx = QFontMetricsF(yAxis->tickLabelFont()).height();
    const int step = rowPx > 0 ? std::max(1, static_cast<int>(std::ceil(textPx / rowPx))) : 1;
    if (step == m_labelStep && !m_labels->ticks().isEmpty())
        return;
    m_labelStep = step;
    m_labels->clear();
    for (std::size_t i = 0; i < m_names.size(); i += static_cast<std::size_t>(step))
        m_labels->addTick(double(i), m_names[i]);
    replot(QCustomPlot::rpQueuedReplot); // the axis took its ticks before this layout
}

void DeltaChart::setDelta(const trace::RunDelta& delta) {
    clearPlottables();
    m_bars.clear();
    m_blocks.clear();
    m_names.clear();
    m_labels->clear();
    if (delta.blocks.empty()) {
        showMessage(tr("Neither run has events of a block"));
        return;
    }
    m_message->setVisible(false);
    xAxis->setVisible(true);
    yAxis->setVisible(true);
    m_zero->setVisible(true);
    // The largest changes either way, kept in the sort order (slowdowns first).
    std::vector<std::size_t> order(delta.blocks.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    if (order.size() > kMaxBars) {
        std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
            return std::llabs(delta.blocks[x].deltaPs) > std::llabs(delta.blocks[y].deltaPs);
        });
        order.resize(kMaxBars);
        std::sort(order.begin(), order.end());
    }
    std::vector<const trace::BlockDelta*> shown;
    for (std::size_t i : order)
        shown.push_back(&delta.blocks[i]);
    double low = 0, high = 0;
    // One QCPBars per block: each has its own colour (QCPBars has one brush).
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const trace::BlockDelta& d = *shown[i];
        auto* bars = new QCPBars(yAxis, xAxis);
        const QColor color = graph::blockColor(d.block);
        QBrush brush(color);
        if (d.onlyInA() || d.onlyInB())
            brush.setStyle(Qt::BDiagPattern); // not a change of one block: a block of one run
        bars->setBrush(brush);
        bars->setPen(QPen(color.darker(150), 1));
        bars->setWidth(0.72);
        bars->setSelectable(QCP::stWhole);
        bars->addData(double(i), double(d.deltaPs));
        bars->setName(blockLabel(d));
        m_bars.push_back(bars);
        m_blocks.push_back(d.block);
        m_names.push_back(blockLabel(d));
        low = std::min(low, double(d.deltaPs));
        high = std::max(high, double(d.deltaPs));
    }
    const double span = std::max(1.0, high - low);
    xAxis->setRange(low - 0.06 * span, high + 0.06 * span);
    yAxis->setRange(-0.7, double(shown.size()) - 0.3);
    xAxis->setLabel(delta.blocks.size() > shown.size()
                        ? tr("B \u2212 A  (the %1 largest changes of %2 blocks)").arg(shown.size()).arg(delta.blocks.size())
                        : tr("B \u2212 A"));
    labelBarsThatFit();
    replot(QCustomPlot::rpQueuedReplot);
}

void DeltaChart::showMessage(const QString& text) {
    clearPlottables();
    m_bars.clear();
    m_blocks.clear();
    m_names.clear();
    m_labels->clear();
    m_message->setText(text);
    m_message->setVisible(!text.isEmpty());
    // No axes without bars: a scale of nothing reads as data.
    xAxis->setVisible(false);
    yAxis->setVisible(false);
    m_zero->setVisible(false);
    replot(QCustomPlot::rpQueuedReplot);
}

} // namespace strata::views::compare
