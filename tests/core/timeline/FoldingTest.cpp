#include "TestTraces.h"
#include "timeline/Folding.h"

#include <gtest/gtest.h>

namespace strata::timeline {
namespace {

using testing::event;
using trace::EventKind;

std::size_t countVisible(const trace::Trace& t, const Lane& lane, const Viewport& v) {
    std::size_t n = 0;
    for (std::uint32_t index : lane.events) {
        const trace::Event& e = t.events[index];
        if (e.startPs < v.endPs() && (e.endPs > v.startPs || (e.startPs == e.endPs && e.startPs == v.startPs)))
            ++n;
    }
    return n;
}

// Items cover contiguous lane positions, each visible event exactly once, nothing outside the
// range visibleRange() found, and at most a few items per column of pixels.
void expectSoundList(const trace::Trace& t, const Lane& lane, const Viewport& v, double foldPx) {
    std::vector<DrawItem> items;
    buildDrawList(lane, t, v, items, foldPx);
    const auto [first, last] = visibleRange(lane, static_cast<std::int64_t>(v.startPs),
                                            static_cast<std::int64_t>(std::ceil(v.endPs())));
    std::size_t next = first;
    std::uint64_t counted = 0;
    for (const DrawItem& item : items) {
        EXPECT_EQ(item.first, next);
        EXPECT_GE(item.count, 1u);
        EXPECT_GE(item.x1, item.x0);
        next = item.first + item.count;
        counted += item.count;
        if (item.folded()) { // a fold starts and its events start within one column
            EXPECT_LT(v.toPixel(static_cast<double>(lane.startPs[next - 1])) - item.x0, foldPx + 1e-3);
        }
    }
    EXPECT_EQ(next, last);
    EXPECT_EQ(counted, last - first);
    EXPECT_GE(counted, countVisible(t, lane, v));
    // Folding bounds the work: items never outnumber about two per column (a fold and a wide event).
    EXPECT_LE(items.size(), static_cast<std::size_t>(2 * v.widthPx / foldPx + 4) +
                                (last - first < 10 ? last - first : 0));
}

TEST(Folding, WideEventsStayAloneAndNarrowOnesMerge) {
    trace::Trace t;
    // One wide compute, then 100 one-picosecond events, then another wide one.
    t.events.push_back(event(0, 1000, EventKind::Compute, 0, 0));
    for (int i = 0; i < 100; ++i)
        t.events.push_back(event(1000 + i, 1001 + i, EventKind::Compute, 0, 1));
    t.events.push_back(event(1100, 2000, EventKind::Compute, 0, 2));
    const Lane lane = buildLanes(t).front();
    const Viewport v{0, 10, 200}; // 10 ps per pixel: a 1 ps event is a tenth of a pixel
    std::vector<DrawItem> items;
    buildDrawList(lane, t, v, items, 3);
    ASSERT_GE(items.size(), 3u);
    EXPECT_EQ(items.front().count, 1u);
    EXPECT_FLOAT_EQ(items.front().x0, 0);
    EXPECT_FLOAT_EQ(items.front().x1, 100);
    EXPECT_EQ(items.back().count, 1u);
    EXPECT_EQ(items.back().block, 2);
    std::uint32_t folded = 0;
    for (std::size_t i = 1; i + 1 < items.size(); ++i) {
        EXPECT_TRUE(items[i].folded() || items[i].x1 - items[i].x0 >= 1);
        EXPECT_EQ(items[i].block, 1);
        folded += items[i].count;
    }
    EXPECT_EQ(folded, 100u);
    // 100 events over 10 pixels in 3-pixel columns: about four folds, not 100 rectangles.
    EXPECT_LE(items.size(), 2u + 5u);
    expectSoundList(t, lane, v, 3);
}

TEST(Folding, ZoomedInEveryEventIsItsOwnItem) {
    trace::Trace t;
    for (int i = 0; i < 20; ++i)
        t.events.push_back(event(i * 100, i * 100 + 60, EventKind::Compute, 0, i));
    const Lane lane = buildLanes(t).front();
    std::vector<DrawItem> items;
    buildDrawList(lane, t, Viewport{0, 1, 2000}, items, 3);
    ASSERT_EQ(items.size(), 20u);
    for (const DrawItem& item : items)
        EXPECT_FALSE(item.folded());
    // A window in the middle: only the events it shows, the first reaching in from the left.
    items.clear();
    buildDrawList(lane, t, Viewport{950, 1, 200}, items, 3);
    ASSERT_EQ(items.size(), 3u);
    EXPECT_EQ(items[0].first, 9u);
    EXPECT_FLOAT_EQ(items[0].x0, -50);
    EXPECT_EQ(items[1].first, 10u);
    EXPECT_FLOAT_EQ(items[1].x0, 50);
    EXPECT_EQ(items[2].first, 11u);
}

TEST(Folding, NeverLosesAnEventAtAnyZoom) {
    const trace::Trace t = testing::randomTrace(2, 20'000, 3);
    const std::vector<Lane> lanes = buildLanes(t);
    const double total = static_cast<double>(t.endPs());
    for (const Lane& lane : lanes)
        for (double span : {total * 1.1, total / 10, total / 1'000, total / 100'000}) {
            for (double start : {-span / 3, total / 2, total - span / 2}) {
                Viewport v{start, span / 1600, 1600};
                expectSoundList(t, lane, v, 3);
                expectSoundList(t, lane, v, 1);
            }
        }
}

TEST(Folding, FullZoomOutOfAMillionEventsDrawsAboutOneItemPerColumn) {
    const trace::Trace t = testing::randomTrace(1, 200'000, 11);
    const std::vector<Lane> lanes = buildLanes(t);
    Viewport v;
    v.widthPx = 1600;
    v.fit(t.endPs());
    for (const Lane& lane : lanes) {
        std::vector<DrawItem> items;
        buildDrawList(lane, t, v, items);
        EXPECT_LE(items.size(), 1600u);
        std::uint64_t counted = 0;
        for (const DrawItem& item : items)
            counted += item.count;
        EXPECT_EQ(counted, lane.size());
    }
}

} // namespace
} // namespace strata::timeline
