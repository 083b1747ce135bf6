// The Transfers tab's plots filled from a small synthetic trace pair: series and point counts,
// log axes, the scatter's id per point and box selection, the histogram's counts, the block
// bars' order and click, the calibration plot's residuals.

#include "analysis/TransferStats.h"
#include "views/transfers/BlockErrorBars.h"
#include "views/transfers/CalibrationResidualsPlot.h"
#include "views/transfers/DurationScatter.h"
#include "views/transfers/ErrorHistogram.h"
#include "views/transfers/PlotStyle.h"
#include "views/transfers/ThroughputPlot.h"

#include <QApplication>
#include <QMouseEvent>
#include <QSignalSpy>
#include <cmath>
#include <gtest/gtest.h>

namespace strata::views::transfers {
namespace {

trace::Event event(std::uint32_t id, trace::EventKind kind, std::uint16_t path, std::uint64_t bytes, std::int64_t start,
                   std::int64_t end, int block) {
    trace::Event e;
    e.id = id;
    e.kind = kind;
    e.path = kind == trace::EventKind::Transfer ? path : trace::kNoPath;
    e.bytes = bytes;
    e.startPs = start;
    e.endPs = end;
    e.block = block;
    return e;
}

// Two paths, two blocks: load transfers of 1 KiB and 64 KiB, one store, two computes. The
// measured run is the prediction with every duration doubled (error -50%) except id 1 (+100%).
struct Pair {
    trace::Trace predicted, measured;
};

Pair makePair() {
    Pair p;
    p.predicted.paths = {{"load", "dram", "scratch"}, {"store", "scratch", "dram"}};
    p.measured.paths = p.predicted.paths;
    p.measured.source = trace::Source::Measured;
    using K = trace::EventKind;
    p.predicted.events = {event(0, K::Transfer, 0, 1024, 0, 1000, 0),       event(1, K::Transfer, 0, 1024, 1000, 3000, 0),
                          event(2, K::Transfer, 0, 65536, 3000, 13000, 1),  event(3, K::Compute, 0, 0, 13000, 20000, 1),
                          event(4, K::Transfer, 1, 1024, 20000, 22000, 1),  event(5, K::Compute, 0, 0, 22000, 23000, 1)};
    std::int64_t t = 0;
    for (trace::Event e : p.predicted.events) {
        const std::int64_t d = e.id == 1 ? e.durationPs() / 2 : e.durationPs() * 2;
        e.startPs = t;
        e.endPs = t + d;
        t += d;
        e.source = trace::Source::Measured;
        p.measured.events.push_back(e);
    }
    return p;
}

std::vector<std::string> names(const trace::Trace& t) {
    std::vector<std::string> out;
    for (const auto& p : t.paths) out.push_back(p.name);
    return out;
}

TEST(TransferPlots, ThroughputOfARunPairPerPathAndIdeal) {
    const Pair p = makePair();
    ThroughputPlot plot;
    plot.setRunThroughput(analysis::throughputBySize(p.predicted), analysis::throughputBySize(p.measured));
    // load and store, predicted and measured, and the ideal (bin 10, where both paths are).
    ASSERT_EQ(plot.graphCount(), 5);
    EXPECT_EQ(plot.graph(0)->name(), QStringLiteral("load predicted"));
    EXPECT_EQ(plot.graph(0)->dataCount(), 2);   // bins 10 and 16
    EXPECT_EQ(plot.graph(1)->dataCount(), 1);
    EXPECT_EQ(plot.graph(2)->name(), QStringLiteral("load measured"));
    EXPECT_EQ(plot.graph(4)->dataCount(), 1);
    EXPECT_TRUE(plot.graph(4)->name().contains(QStringLiteral("ideal")));
    EXPECT_EQ(plot.xAxis->scaleType(), QCPAxis::stLogarithmic);
    EXPECT_EQ(plot.yAxis->scaleType(), QCPAxis::stLinear);
    // Predicted load bin 10: 2048 bytes over 3 ns.
    EXPECT_NEAR(plot.graph(0)->data()->at(0)->value, 2048.0 / 3.0, 1e-9);
}

TEST(TransferPlots, ThroughputLabelsFewerSizesWhenNarrowAndLeavesTheLegendRoom) {
    const Pair p = makePair();
    ThroughputPlot plot;
    plot.resize(1000, 260); // short: the legend takes half the height
    plot.show();            // a hidden widget keeps its old viewport
    plot.replot();
    EXPECT_EQ(plot.xAxis->ticker()->tickCount(), 9);
    plot.setRunThroughput(analysis::throughputBySize(p.predicted),
                          analysis::throughputBySize(p.measured));
    double top = 0;
    for (int g = 0; g < plot.graphCount(); ++g)
        for (auto it = plot.graph(g)->data()->constBegin(); it != plot.graph(g)->data()->constEnd();
             ++it)
            top = std::max(top, it->value);
    // The curves stay below the legend's rows in the top corner.
    const double legendShare =
        (plot.legend->minimumOuterSizeHint().height() + 12.0) / plot.axisRect()->height();
    ASSERT_GT(legendShare, 0.4);
    EXPECT_LE(top, plot.yAxis->range().upper * (1 - std::min(legendShare, 0.7)) + 1e-9);

    plot.resize(240, 260);
    plot.replot();
    EXPECT_LE(plot.xAxis->ticker()->tickCount(), 4);
}

TEST(TransferPlots, ThroughputOfTheMicrobench) {
    emulator::MicrobenchResult predicted;
    predicted.kinds = {"load", "store"};
    for (std::uint64_t words : {8, 64, 512})
        predicted.rows.push_back({words, words * 8, {1.0, 2.0}, 1.5, 4.0 / 3.0});
    ThroughputPlot plot;
    plot.setMicrobench(predicted, nullptr);
    ASSERT_EQ(plot.graphCount(), 4); // two kinds alone, the total, the ideal
    for (int i = 0; i < plot.graphCount(); ++i) EXPECT_EQ(plot.graph(i)->dataCount(), 3);
    emulator::MicrobenchResult measured = predicted;
    plot.setMicrobench(predicted, &measured);
    EXPECT_EQ(plot.graphCount(), 7); // and each kind alone and the total, measured
}

TEST(TransferPlots, ScatterHasOnePointPerMatchedTransferAndSelectsIds) {
    const Pair p = makePair();
    const auto matched = analysis::matchEvents(p.predicted, p.measured);
    DurationScatter scatter;
    scatter.resize(600, 400);
    scatter.setEvents(matched, names(p.predicted));
    scatter.replot();
    EXPECT_EQ(scatter.pointCount(), 4u);
    EXPECT_EQ(scatter.graphCount(), 2);
    EXPECT_EQ(scatter.xAxis->scaleType(), QCPAxis::stLogarithmic);
    EXPECT_EQ(scatter.yAxis->scaleType(), QCPAxis::stLogarithmic);
    QCPGraph* load = scatter.pathGraph(0);
    ASSERT_NE(load, nullptr);
    ASSERT_EQ(load->dataCount(), 3);
    // Sorted by measured duration: id 1 (1 ns), id 0 (2 ns), id 2 (20 ns).
    EXPECT_EQ(scatter.idAt(load, 0), 1u);
    EXPECT_EQ(scatter.idAt(load, 1), 0u);
    EXPECT_EQ(scatter.idAt(load, 2), 2u);
    EXPECT_DOUBLE_EQ(load->data()->at(2)->key, 20);
    EXPECT_DOUBLE_EQ(load->data()->at(2)->value, 10);

    // Hovering id 2's point (20 ns measured, 10 ns predicted) tells it.
    const QString tip = scatter.toolTipAt(QPointF(scatter.xAxis->coordToPixel(20), scatter.yAxis->coordToPixel(10)));
    EXPECT_TRUE(tip.contains(QStringLiteral("transfer 2"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("64 KiB"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("-50.0%"))) << tip.toStdString();
    EXPECT_TRUE(scatter.toolTipAt(QPointF(-50, -50)).isEmpty());

    QSignalSpy selected(&scatter, &DurationScatter::eventsSelected);
    // A box around the 1..2.5 ns measured points catches ids 1 and 0 only.
    scatter.selectBox(0.9, 0.4, 2.5, 2.5);
    ASSERT_EQ(selected.count(), 1);
    const auto ids = selected.at(0).at(0).value<QVector<quint32>>();
    EXPECT_EQ(ids, (QVector<quint32>{1, 0}));
}

TEST(TransferPlots, ScatterBoxDrawnWithTheMouseSelectsTheEventsInside) {
    const Pair p = makePair();
    DurationScatter scatter;
    scatter.resize(600, 400);
    scatter.setEvents(analysis::matchEvents(p.predicted, p.measured), names(p.predicted));
    scatter.replot();
    QSignalSpy selected(&scatter, &DurationScatter::eventsSelected);
    // Drag from (0.9 ns, 2.5 ns) to (2.5 ns, 0.4 ns): the box around ids 1 and 0, as in selectBox.
    auto at = [&](double x, double y) {
        return QPointF(scatter.xAxis->coordToPixel(x), scatter.yAxis->coordToPixel(y));
    };
    const QPointF from = at(0.9, 2.5), to = at(2.5, 0.4);
    auto send = [&](QEvent::Type type, QPointF pos, Qt::MouseButtons buttons) {
        QMouseEvent event(type, pos, scatter.mapToGlobal(pos), Qt::LeftButton, buttons, Qt::NoModifier);
        QApplication::sendEvent(&scatter, &event);
    };
    send(QEvent::MouseButtonPress, from, Qt::LeftButton);
    send(QEvent::MouseMove, (from + to) / 2, Qt::LeftButton);
    send(QEvent::MouseMove, to, Qt::LeftButton);
    send(QEvent::MouseButtonRelease, to, Qt::NoButton);
    ASSERT_EQ(selected.count(), 1);
    EXPECT_EQ(selected.at(0).at(0).value<QVector<quint32>>(), (QVector<quint32>{1, 0}));
}

TEST(TransferPlots, HistogramCountsTransfersAndComputes) {
    const Pair p = makePair();
    const auto matched = analysis::matchEvents(p.predicted, p.measured);
    ErrorHistogram h;
    h.setErrors(analysis::relativeErrors(matched, trace::EventKind::Transfer),
                analysis::relativeErrors(matched, trace::EventKind::Compute));
    ASSERT_EQ(h.transferBars()->dataCount(), 30);
    double transfers = 0, computes = 0;
    for (int i = 0; i < 30; ++i) {
        transfers += h.transferBars()->data()->at(i)->value;
        computes += h.computeBars()->data()->at(i)->value;
    }
    // The range runs to the 98th percentile: the +100% transfer may fall outside, counted in the name.
    EXPECT_GE(transfers, 3);
    EXPECT_EQ(computes, 2);
    EXPECT_TRUE(h.transferBars()->name().startsWith(QStringLiteral("transfers (4)")));
    h.setComputesShown(false);
    EXPECT_FALSE(h.computeBars()->visible());
}

TEST(TransferPlots, BlockBarsWorstFirstInBlockColoursAndClickable) {
    const Pair p = makePair();
    BlockErrorBars bars;
    bars.setErrors(analysis::blockErrors(p.predicted, p.measured));
    ASSERT_EQ(bars.barCount(), 2u);
    // Block 0: 3 ns predicted vs 4 ns measured (-25%); block 1: -50%. Worst first.
    EXPECT_EQ(bars.blockAt(0), 1);
    EXPECT_EQ(bars.blockAt(1), 0);
    QSignalSpy clicked(&bars, &BlockErrorBars::blockClicked);
    bars.clickBar(1);
    ASSERT_EQ(clicked.count(), 1);
    EXPECT_EQ(clicked.at(0).at(0).toInt(), 0);
}

TEST(TransferPlots, CalibrationPlotShowsBothModelsAndTheirResiduals) {
    PathResiduals path;
    path.path = QStringLiteral("load");
    path.clockHz = 1e9;
    path.before = {200, 8};
    path.after = {10, 4};
    for (double bytes : {64.0, 1024.0, 65536.0}) path.samples.push_back({bytes, path.after.cycles(bytes)});
    CalibrationResidualsPlot plot;
    plot.setPath(path);
    EXPECT_EQ(plot.measuredGraph()->dataCount(), 3);
    EXPECT_EQ(plot.beforeGraph()->dataCount(), 65);
    EXPECT_EQ(plot.afterGraph()->dataCount(), 65);
    EXPECT_DOUBLE_EQ(plot.rmsAfter(), 0);
    EXPECT_GT(plot.rmsBefore(), 0.5);
    EXPECT_EQ(plot.xAxis->scaleType(), QCPAxis::stLogarithmic);
}

TEST(TransferPlots, LogTicksAreLabelledInBytesAndTimeUnits) {
    BytesLogTicker bytes;
    EXPECT_EQ(bytes.getTickLabel(64, QLocale::c(), 'g', 2), QStringLiteral("64 B"));
    EXPECT_EQ(bytes.getTickLabel(4096, QLocale::c(), 'g', 2), QStringLiteral("4 KiB"));
    NanosecondsLogTicker time;
    EXPECT_EQ(time.getTickLabel(100, QLocale::c(), 'g', 2), QStringLiteral("100 ns"));
    EXPECT_EQ(time.getTickLabel(1000, QLocale::c(), 'g', 2), QStringLiteral("1 \u00b5s"));
    EXPECT_EQ(time.getTickLabel(1e7, QLocale::c(), 'g', 2), QStringLiteral("10 ms"));
    EXPECT_EQ(time.getTickLabel(0.1, QLocale::c(), 'g', 2), QStringLiteral("100 ps"));
}

TEST(TransferPlots, EmptyInputsShowAMessageNotACrash) {
    DurationScatter scatter;
    scatter.setEvents({}, {});
    EXPECT_EQ(scatter.pointCount(), 0u);
    ErrorHistogram h;
    h.setErrors({}, {});
    EXPECT_EQ(h.transferBars()->dataCount(), 0);
    BlockErrorBars bars;
    bars.setErrors({});
    EXPECT_EQ(bars.barCount(), 0u);
    ThroughputPlot plot;
    plot.setRunThroughput({}, {});
    EXPECT_EQ(plot.graphCount(), 0);
}

TEST(TransferPlots, AMessageIsBrokenIntoLinesThatFitAPlot) {
    const QString text = QStringLiteral(
        "Measured runs need the host target: choose host, then Run on Host (Ctrl+R)");
    const QStringList lines = wrappedMessage(text, 42).split(QLatin1Char('\n'));
    EXPECT_GT(lines.size(), 1);
    for (const QString& line : lines)
        EXPECT_LE(line.size(), 42) << line.toStdString();
    EXPECT_EQ(lines.join(QLatin1Char(' ')), text); // nothing lost, words whole
    EXPECT_EQ(wrappedMessage(QStringLiteral("short"), 42), QStringLiteral("short"));
}

} // namespace
} // namespace strata::views::transfers
