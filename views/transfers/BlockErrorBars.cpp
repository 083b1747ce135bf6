#include "views/transfers/BlockErrorBars.h"

#include "views/graph/GraphStyle.h"
#include "views/timeline/TimeFormat.h"
#include "views/transfers/PlotStyle.h"

#include <algorithm>
#include <cmath>

namespace strata::views::transfers {

BlockErrorBars::BlockErrorBars(QWidget* parent) : QCustomPlot(parent) {
    setObjectName(QStringLiteral("blockErrorBars"));
    addHeading(*this, tr("Prediction error per block (worst first)"));
    styleAxes(*this);
    xAxis->setLabel(tr("block"));
    yAxis->setLabel(tr("relative error of the block's time (%)"));
    m_message = messageItem(*this);
    connect(this, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable* plottable, int, QMouseEvent*) {
        const auto it = std::find(m_bars.begin(), m_bars.end(), plottable);
        if (it != m_bars.end()) clickBar(static_cast<int>(it - m_bars.begin()));
    });
}

void BlockErrorBars::setErrors(const std::vector<analysis::BlockError>& errors) {
    clearPlottables();
    m_bars.clear();
    m_blocks.clear();
    if (errors.empty()) {
        showMessage(tr("No block was timed in both runs"));
        return;
    }
    m_message->setVisible(false);
    const std::size_t n = std::min(errors.size(), kMaxBlocks);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double low = 0, high = 0;
    // One QCPBars per block: each takes its own colour and tooltip-free click.
    for (std::size_t i = 0; i < n; ++i) {
        const analysis::BlockError& e = errors[i];
        auto* bars = new QCPBars(xAxis, yAxis);
        const QColor color = graph::blockColor(e.block);
        bars->setBrush(color);
        bars->setPen(QPen(color.darker(150), 1));
        bars->setWidth(0.75);
        bars->setSelectable(QCP::stWhole);
        bars->addData(double(i), 100 * e.error);
        bars->setName(QStringLiteral("B%1").arg(e.block));
        m_bars.push_back(bars);
        m_blocks.push_back(e.block);
        ticker->addTick(double(i), QStringLiteral("B%1").arg(e.block));
        low = std::min(low, 100 * e.error);
        high = std::max(high, 100 * e.error);
    }
    xAxis->setTicker(ticker);
    xAxis->setTickLabelRotation(n > 16 ? 60 : 0);
    xAxis->setSubTicks(false);
    xAxis->grid()->setVisible(false);
    xAxis->setRange(-0.7, double(n) - 0.3);
    const double span = std::max(1.0, high - low);
    yAxis->setRange(low - 0.08 * span, high + 0.08 * span);
    if (errors.size() > n)
        xAxis->setLabel(tr("block (the %1 worst of %2)").arg(n).arg(errors.size()));
    else
        xAxis->setLabel(tr("block"));
    replot(QCustomPlot::rpQueuedReplot);
}

void BlockErrorBars::showMessage(const QString& text) {
    clearPlottables();
    m_bars.clear();
    m_blocks.clear();
    m_message->setText(wrappedMessage(text));
    m_message->setVisible(!text.isEmpty());
    replot(QCustomPlot::rpQueuedReplot);
}

void BlockErrorBars::clickBar(int bar) {
    if (bar >= 0 && static_cast<std::size_t>(bar) < m_blocks.size()) emit blockClicked(m_blocks[static_cast<std::size_t>(bar)]);
}

} // namespace strata::views::transfers
