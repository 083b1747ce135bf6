// The Timeline tab's widget over small traces: rows per core and path, hover text with the
// predicted and measured durations and their error, a click selecting an instruction, folds
// zooming in, range statistics (model under QAbstractItemModelTester), zoom and pan by keys,
// and the empty state.

#include "views/timeline/TimelineView.h"

#include "views/Format.h"
#include "views/timeline/RangeStatsModel.h"
#include "views/timeline/TimeFormat.h"
#include "views/timeline/TimeTicker.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <qcustomplot.h>

#include <gtest/gtest.h>

namespace strata::views::timeline {
namespace {

trace::Event event(std::int64_t start, std::int64_t end, trace::EventKind kind, std::uint32_t core, std::int32_t block,
                   std::uint32_t id, std::uint16_t path = trace::kNoPath) {
    trace::Event e;
    e.startPs = start;
    e.endPs = end;
    e.kind = kind;
    e.core = core;
    e.block = block;
    e.id = id;
    e.path = path;
    e.op = 0;
    e.bytes = kind == trace::EventKind::Transfer ? 65536 : 0;
    return e;
}

// Two cores; a transfer then a compute on core 0, a compute on core 1, and 400 tiny waits
// late on core 1 that fold when zoomed out. `scale` stretches the times (a "measured" run).
std::shared_ptr<const trace::Trace> makeTrace(trace::Source source, double scale) {
    auto t = std::make_shared<trace::Trace>();
    t->source = source;
    t->cores = 2;
    t->paths = {{"mvp", "dram", "sram"}};
    t->ops = {"/conv1/Conv"};
    const auto at = [scale](std::int64_t ps) { return static_cast<std::int64_t>(static_cast<double>(ps) * scale); };
    t->events.push_back(event(0, at(400'000), trace::EventKind::Transfer, 0, 0, 1, 0));
    t->events.push_back(event(at(400'000), at(1'000'000), trace::EventKind::Compute, 0, 0, 2));
    t->events.push_back(event(0, at(500'000), trace::EventKind::Compute, 1, 1, 3));
    for (std::uint32_t i = 0; i < 400; ++i)
        t->events.push_back(event(at(600'000 + i * 10), at(600'000 + i * 10 + 5), trace::EventKind::Wait, 1, 1, 10 + i));
    t->counters.push_back({trace::Counter::Kind::PathBandwidth, 0, {{0, 16.0}, {at(400'000), 0.0}}});
    return t;
}

struct Fixture {
    TimelineView view;
    Fixture(std::vector<std::shared_ptr<const trace::Trace>> traces, std::vector<std::string> names = {}) {
        view.resize(1400, 700);
        view.show();
        view.setTraces(std::move(traces), std::move(names));
        settle();
    }
    void settle() {
        view.plot()->replot();
        QCoreApplication::processEvents();
    }
    // The centre of row `row` at time `ps`, in plot coordinates.
    QPoint at(std::size_t row, double ps) const {
        const QRect area = view.eventArea();
        RowGeometry g = RowGeometry::of(view.rows(), TimelineStyle::standard());
        return {area.left() + static_cast<int>(view.viewport().toPixel(ps)),
                area.top() + static_cast<int>(g.top[row] + g.rowHeight(row) / 2)};
    }
};

TEST(TimelineViewTest, EmptyStateUntilATraceIsShown) {
    TimelineView view;
    EXPECT_FALSE(view.isShowingTimeline());
    view.setTraces({});
    EXPECT_FALSE(view.isShowingTimeline());
    view.setTraces({std::make_shared<const trace::Trace>()});
    EXPECT_FALSE(view.isShowingTimeline()); // no events
}

TEST(TimelineViewTest, PairedRowsAndFittedView) {
    Fixture f({makeTrace(trace::Source::Emulated, 1), makeTrace(trace::Source::Measured, 1.5)});
    ASSERT_TRUE(f.view.isShowingTimeline());
    // core 0: compute x2, mvp x2; core 1: compute x2.
    ASSERT_EQ(f.view.rows().size(), 6u);
    EXPECT_EQ(f.view.rows()[0].label, "core 0 \u00b7 emulated");
    EXPECT_EQ(f.view.rows()[1].label, "core 0 \u00b7 measured");
    EXPECT_DOUBLE_EQ(f.view.viewport().startPs, 0);
    EXPECT_GE(f.view.viewport().endPs(), 1'500'000);
    EXPECT_GT(f.view.frame().items(), 0u);
    f.view.setRowMode(strata::timeline::RowMode::Overlaid);
    EXPECT_EQ(f.view.rows().size(), 3u);
    // New traces (a re-emulation) keep the zoom.
    f.view.zoomToRange(100'000, 200'000);
    f.view.setTraces({makeTrace(trace::Source::Emulated, 1.1)});
    EXPECT_NEAR(f.view.viewport().startPs, 100'000, 1);
    EXPECT_NEAR(f.view.viewport().endPs(), 200'000, 1);
}

TEST(TimelineViewTest, AMeasuredRunArrivingNextToAFittedPredictionIsShownWhole) {
    // The app shows the emulated run first; Run on Host adds a measured run eight times longer.
    Fixture f({makeTrace(trace::Source::Emulated, 1)});
    const auto measured = makeTrace(trace::Source::Measured, 8);
    f.view.setTraces({makeTrace(trace::Source::Emulated, 1), measured});
    f.settle();
    const double end = static_cast<double>(measured->endPs());
    ASSERT_GT(end, static_cast<double>(makeTrace(trace::Source::Emulated, 1)->endPs()));
    EXPECT_DOUBLE_EQ(f.view.viewport().startPs, 0);
    EXPECT_GE(f.view.viewport().endPs(), end);
    EXPECT_LT(f.view.viewport().endPs(), end * 1.1); // fitted, not just wide
    // The measured run's last compute is drawn: its row has an item at the run's end.
    EXPECT_FALSE(f.view.toolTipAt(f.at(1, end - 1000)).isEmpty());
}

TEST(TimelineViewTest, HoverShowsBothDurationsAndTheError) {
    Fixture f({makeTrace(trace::Source::Emulated, 1), makeTrace(trace::Source::Measured, 2)});
    // Row 0: core 0's compute of the emulated run, 400..1000 ns.
    const QString text = f.view.toolTipAt(f.at(0, 700'000));
    EXPECT_TRUE(text.contains(QStringLiteral("/conv1/Conv"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("block B0"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("600 ns"))) << text.toStdString();  // predicted
    EXPECT_TRUE(text.contains(QStringLiteral("1.20 \u00b5s"))) << text.toStdString(); // measured
    EXPECT_TRUE(text.contains(QStringLiteral("error: -50.0%"))) << text.toStdString();
    // Nothing drawn there: no text.
    EXPECT_TRUE(f.view.toolTipAt(f.at(0, 1'900'000)).isEmpty());
}

TEST(TimelineViewTest, ClickSelectsTheInstruction) {
    Fixture f({makeTrace(trace::Source::Emulated, 1)});
    QSignalSpy spy(&f.view, &TimelineView::eventSelected);
    // Rows: core 0 compute, core 0 mvp, core 1 compute.
    QTest::mouseClick(f.view.plot(), Qt::LeftButton, Qt::NoModifier, f.at(1, 200'000));
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(spy.at(0).at(1).value<quint32>(), 1u);
    ASSERT_TRUE(f.view.selectedEvent());
    EXPECT_EQ(f.view.selectedEvent()->eventIndex, 0u);
}

TEST(TimelineViewTest, ClickOnAFoldZoomsIntoIt) {
    Fixture f({makeTrace(trace::Source::Emulated, 1)});
    const auto hit = f.view.hitAt(f.at(2, 602'000));
    ASSERT_TRUE(hit);
    EXPECT_GT(hit->count, 1u);
    EXPECT_TRUE(f.view.toolTipAt(f.at(2, 602'000)).contains(QStringLiteral("events")));
    const double before = f.view.viewport().psPerPixel;
    QSignalSpy spy(&f.view, &TimelineView::eventSelected);
    f.view.clickAt(f.at(2, 602'000));
    EXPECT_EQ(spy.count(), 0);
    EXPECT_LT(f.view.viewport().psPerPixel, before / 10);
}

TEST(TimelineViewTest, RangeSelectionShowsStatistics) {
    Fixture f({makeTrace(trace::Source::Emulated, 1), makeTrace(trace::Source::Measured, 2)});
    QAbstractItemModelTester tester(f.view.rangeModel(), QAbstractItemModelTester::FailureReportingMode::Warning);
    // Shift+drag from 100 ns to 450 ns over the lanes.
    const QPoint from = f.at(0, 100'000);
    const QPoint to = f.at(0, 450'000);
    QTest::mousePress(f.view.plot(), Qt::LeftButton, Qt::ShiftModifier, from);
    QMouseEvent move(QEvent::MouseMove, QPointF(to), f.view.plot()->mapToGlobal(QPointF(to)), Qt::LeftButton,
                     Qt::LeftButton, Qt::ShiftModifier);
    QCoreApplication::sendEvent(f.view.plot(), &move);
    QTest::mouseRelease(f.view.plot(), Qt::LeftButton, Qt::ShiftModifier, to);
    ASSERT_TRUE(f.view.selectedRange());
    RangeStatsModel* model = f.view.rangeModel();
    ASSERT_EQ(model->stats().size(), 2u);
    const auto& emulated = model->stats()[0];
    // Pixel rounding: the range is within a pixel of 100..450 ns.
    const double pixel = f.view.viewport().psPerPixel;
    EXPECT_NEAR(static_cast<double>(emulated.fromPs), 100'000, 2 * pixel);
    EXPECT_NEAR(static_cast<double>(emulated.toPs), 450'000, 2 * pixel);
    // Kinds, a path and two blocks; columns: group, name, then time/events/bytes per run.
    EXPECT_EQ(model->columnCount(), 2 + 2 * RangeStatsModel::kFiguresPerTrace);
    EXPECT_EQ(model->rowCount(), 2 + 1 + 2);
    EXPECT_EQ(model->index(0, 1).data().toString(), QStringLiteral("transfer"));
    EXPECT_EQ(model->index(0, 0).data().toString(), QStringLiteral("kind"));
    const qint64 transferTime = model->index(0, 2).data(RangeStatsModel::SortRole).toLongLong();
    EXPECT_EQ(transferTime, std::min<std::int64_t>(emulated.toPs, 400'000) - emulated.fromPs);
    // Selecting a range programmatically, then clearing it.
    f.view.selectRange(0, 1'000'000);
    EXPECT_EQ(model->stats()[0].total.events, 3u + 400u); // the waits too
    // Without a range the table holds the whole run.
    f.view.clearRange();
    EXPECT_FALSE(f.view.selectedRange());
    ASSERT_EQ(model->stats().size(), 2u);
    EXPECT_EQ(model->stats()[0].fromPs, 0);
    EXPECT_EQ(model->stats()[1].toPs, 2'000'000);
    EXPECT_EQ(model->stats()[1].total.events, 403u);
}

// A prediction and its measurement run the same program: over the whole run both have the same
// events and bytes, shown once after the two runs' times, and the table needs no horizontal
// scroll bar in the side panel. A range they disagree on shows every run's.
TEST(TimelineViewTest, TimeInRangeShowsSharedCountsOnceAndFitsThePanel) {
    Fixture f({makeTrace(trace::Source::Emulated, 1), makeTrace(trace::Source::Measured, 2)});
    RangeStatsModel* model = f.view.rangeModel();
    ASSERT_EQ(model->stats().size(), 2u);
    ASSERT_EQ(model->stats()[0].total.events, model->stats()[1].total.events);
    EXPECT_TRUE(model->countsShared());
    ASSERT_EQ(model->columnCount(), 2 + 2 + 2); // group, name, time per run, events, bytes
    EXPECT_EQ(model->headerData(2, Qt::Horizontal).toString(), QStringLiteral("Time 1"));
    EXPECT_EQ(model->headerData(3, Qt::Horizontal).toString(), QStringLiteral("Time 2"));
    EXPECT_EQ(model->headerData(4, Qt::Horizontal).toString(), QStringLiteral("Events"));
    EXPECT_EQ(model->headerData(5, Qt::Horizontal).toString(), QStringLiteral("Bytes"));
    const auto& total = model->stats()[0].total;
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, 1).data().toString() == QStringLiteral("transfer")) {
            EXPECT_EQ(model->index(row, 5).data().toString(), formatBytes(total.bytes));
        }
    }

    auto* table = f.view.findChild<QTableView*>(QStringLiteral("rangeTable"));
    ASSERT_NE(table, nullptr);
    f.settle();
    EXPECT_EQ(table->horizontalScrollBar()->maximum(), 0) << "the table scrolls sideways";
    // The sorted column has room for its arrow, the others do not: same label length, narrower.
    const QHeaderView* header = table->horizontalHeader();
    ASSERT_EQ(header->sortIndicatorSection(), 2);
    EXPECT_LT(header->sectionSize(3), header->sectionSize(2));

    // 0..450 ns: the measured run (twice as slow) has not yet started its core-0 compute.
    f.view.selectRange(0, 450'000);
    EXPECT_FALSE(model->countsShared());
    EXPECT_EQ(model->columnCount(), 2 + 2 * RangeStatsModel::kFiguresPerTrace);
    EXPECT_EQ(model->headerData(4, Qt::Horizontal).toString(), QStringLiteral("Events 1"));
    EXPECT_EQ(model->headerData(5, Qt::Horizontal).toString(), QStringLiteral("Events 2"));
}

TEST(TimelineViewTest, KeysAndWheelZoomAndPan) {
    Fixture f({makeTrace(trace::Source::Emulated, 1)});
    const auto fitted = f.view.viewport();
    f.view.plot()->setFocus();
    QTest::keyClick(f.view.plot(), Qt::Key_Plus);
    EXPECT_NEAR(f.view.viewport().psPerPixel, fitted.psPerPixel / 1.5, 1e-6);
    QTest::keyClick(f.view.plot(), Qt::Key_Right);
    EXPECT_GT(f.view.viewport().startPs, fitted.startPs);
    QTest::keyClick(f.view.plot(), Qt::Key_F);
    EXPECT_DOUBLE_EQ(f.view.viewport().startPs, 0);
    EXPECT_NEAR(f.view.viewport().psPerPixel, fitted.psPerPixel, 1e-6);
    // Wheel: zooms about the cursor, the time under it stays.
    const QPoint cursor = f.at(0, 500'000);
    const double under = f.view.viewport().toPs(cursor.x() - f.view.eventArea().left());
    QWheelEvent wheel(QPointF(cursor), f.view.plot()->mapToGlobal(QPointF(cursor)), QPoint(), QPoint(0, 240),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(f.view.plot(), &wheel);
    EXPECT_LT(f.view.viewport().psPerPixel, fitted.psPerPixel);
    EXPECT_NEAR(f.view.viewport().toPs(cursor.x() - f.view.eventArea().left()), under, 1e-3);
}

TEST(TimeFormatTest, UnitsAndTicks) {
    EXPECT_EQ(formatDuration(850), QStringLiteral("850 ps"));
    EXPECT_EQ(formatDuration(12'500), QStringLiteral("12.5 ns"));
    EXPECT_EQ(formatDuration(1'230'000'000), QStringLiteral("1.23 ms"));
    EXPECT_EQ(formatTick(1'250'000, 250'000, unitForStep(250'000)), QStringLiteral("1.25 \u00b5s"));
    EXPECT_EQ(formatTick(3'000'000'000, 1'000'000'000, unitForStep(1'000'000'000)), QStringLiteral("3 ms"));
    EXPECT_EQ(formatTick(40'000, 20'000, unitForStep(20'000)), QStringLiteral("40 ns"));
}

TEST(TimeFormatTest, RulerInTimesOrCycles) {
    TimeTicker ticker;
    QVector<double> ticks;
    QVector<QString> labels;
    ticker.generate(QCPRange(0, 2'000'000), QLocale::c(), QLatin1Char('g'), 6, ticks, nullptr, &labels);
    ASSERT_GE(labels.size(), 3);
    EXPECT_TRUE(labels.back().endsWith(QStringLiteral("\u00b5s"))) << labels.back().toStdString();
    // 1 GHz: 2 µs are 2000 cycles, ticks at round cycle counts.
    ticker.setCycles(1e9);
    ticks.clear();
    labels.clear();
    ticker.generate(QCPRange(0, 2'000'000), QLocale::c(), QLatin1Char('g'), 6, ticks, nullptr, &labels);
    ASSERT_GE(labels.size(), 3);
    for (const QString& label : labels)
        EXPECT_TRUE(label.endsWith(QStringLiteral("cyc"))) << label.toStdString();
    EXPECT_EQ(labels.front(), QStringLiteral("0 cyc"));
    EXPECT_DOUBLE_EQ(std::fmod(ticks[1] * 1e-3, 1.0), 0.0); // whole cycles
}

} // namespace
} // namespace strata::views::timeline
