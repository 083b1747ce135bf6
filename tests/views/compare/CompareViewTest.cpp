// The Compare tab's widgets: one bar per block in the delta's order with block names (and which
// run a block is only in), at most kMaxBars keeping the largest changes, the empty message, and
// the totals and pickers of CompareView.

#include "views/compare/CompareView.h"
#include "views/compare/DeltaChart.h"
#include "views/timeline/TimelineView.h"

#include <QComboBox>
#include <QSignalSpy>
#include <gtest/gtest.h>

namespace strata::views::compare {
namespace {

trace::BlockDelta block(int id, std::optional<std::int64_t> a, std::optional<std::int64_t> b) {
    trace::BlockDelta d;
    d.block = id;
    d.aPs = a;
    d.bPs = b;
    d.deltaPs = b.value_or(0) - a.value_or(0);
    return d;
}

trace::RunDelta threeBlocks() {
    trace::RunDelta d;
    d.totalAPs = 1'200'000'000; // 1.2 ms
    d.totalBPs = 1'000'000'000;
    d.deltaPs = -200'000'000;
    d.relative = -200.0 / 1200.0;
    d.blocks = {block(4, std::nullopt, 50'000'000), block(1, 100'000'000, 120'000'000),
                block(2, 300'000'000, std::nullopt)};
    d.onlyInA = 1;
    d.onlyInB = 1;
    return d;
}

TEST(DeltaChart, OneBarPerBlockInOrderWithItsName) {
    DeltaChart chart;
    chart.setDelta(threeBlocks());
    ASSERT_EQ(chart.barCount(), 3);
    EXPECT_EQ(chart.blocks(), (std::vector<int>{4, 1, 2}));
    EXPECT_EQ(chart.barLabel(0), QStringLiteral("B4 \u00b7 only in B"));
    EXPECT_EQ(chart.barLabel(1), QStringLiteral("B1"));
    EXPECT_EQ(chart.barLabel(2), QStringLiteral("B2 \u00b7 only in A"));
    chart.setDelta({});
    EXPECT_EQ(chart.barCount(), 0);
}

TEST(DeltaChart, LabelsEveryKthBarWhenRowsAreShorterThanText) {
    trace::RunDelta d;
    for (int i = 0; i < 30; ++i)
        d.blocks.push_back(block(i, 0, 30 - i));
    DeltaChart chart;
    chart.resize(300, 900);
    chart.show(); // a hidden widget keeps its old viewport
    chart.setDelta(d);
    chart.replot();
    EXPECT_EQ(chart.labelStep(), 1); // ~25 px rows: every bar named

    chart.resize(300, 160);
    chart.replot();
    EXPECT_GT(chart.labelStep(), 1);                      // ~3 px rows: names would overlap
    EXPECT_EQ(chart.barLabel(29), QStringLiteral("B29")); // every name is still kept
}

TEST(DeltaChart, KeepsTheLargestChangesInTheirOrder) {
    trace::RunDelta d;
    // 50 blocks: deltas 50, 49, ..., 1 ps, then one of -1000 ps (the largest change).
    for (int i = 0; i < 50; ++i)
        d.blocks.push_back(block(i, 0, 50 - i));
    d.blocks.push_back(block(99, 1000, 0));
    DeltaChart chart;
    chart.setDelta(d);
    ASSERT_EQ(chart.barCount(), static_cast<int>(DeltaChart::kMaxBars));
    EXPECT_EQ(chart.blocks().front(), 0);
    EXPECT_EQ(chart.blocks().back(), 99); // still last: the order is the delta's
    EXPECT_EQ(chart.blocks()[DeltaChart::kMaxBars - 2], static_cast<int>(DeltaChart::kMaxBars) - 2);
}

TEST(CompareView, ShowsTotalsAndBothTimelines) {
    CompareView view;
    view.setRunNames({QStringLiteral("one"), QStringLiteral("two")});
    QSignalSpy picked(&view, &CompareView::selectionChanged);
    view.select(0, 1);
    ASSERT_EQ(picked.count(), 1);
    EXPECT_EQ(picked.at(0).at(0).toInt(), 0);
    EXPECT_EQ(picked.at(0).at(1).toInt(), 1);

    auto trace = [](std::int64_t endNs) {
        auto t = std::make_shared<trace::Trace>();
        trace::Event e;
        e.block = 1;
        e.endPs = endNs * 1000;
        t->events.push_back(e);
        return std::shared_ptr<const trace::Trace>(std::move(t));
    };
    CompareView::Comparison c;
    c.delta = threeBlocks();
    c.a = trace(1200);
    c.b = trace(1000);
    c.nameA = "one";
    c.nameB = "two";
    view.showComparison(std::move(c));
    ASSERT_NE(view.comparison(), nullptr);
    EXPECT_EQ(view.chart()->barCount(), 3);
    EXPECT_EQ(view.totalsText(), QStringLiteral("A 1.20 ms \u00b7 B 1.00 ms \u00b7 B \u2212 A \u2212200 \u00b5s (-16.7 %)"));
    ASSERT_NE(view.timelineView()->data(), nullptr);
    EXPECT_EQ(view.timelineView()->data()->traces().size(), 2u);

    view.showMessage(QStringLiteral("nothing"));
    EXPECT_EQ(view.comparison(), nullptr);
    EXPECT_TRUE(view.totalsText().isEmpty());
    // The picks survive a longer list.
    view.setRunNames({QStringLiteral("one"), QStringLiteral("two"), QStringLiteral("three")});
    EXPECT_EQ(view.runA(), 0);
    EXPECT_EQ(view.runB(), 1);
    EXPECT_EQ(view.comboA()->count(), 3);
}

} // namespace
} // namespace strata::views::compare
