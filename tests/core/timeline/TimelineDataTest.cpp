#include "TestTraces.h"
#include "timeline/TimelineData.h"

#include <gtest/gtest.h>

namespace strata::timeline {
namespace {

using testing::event;
using trace::EventKind;

std::shared_ptr<const trace::Trace> smallTrace(trace::Source source, std::int64_t scale,
                                               std::vector<trace::TracePath> paths) {
    auto t = std::make_shared<trace::Trace>();
    t->source = source;
    t->paths = std::move(paths);
    const std::uint16_t load = t->paths.size() > 1 ? 1 : 0; // "load" sits at another index
    t->events = {event(0, 10 * scale, EventKind::Transfer, 0, 0, load, 0),
                 event(10 * scale, 30 * scale, EventKind::Compute, 0, 0, trace::kNoPath, 1),
                 event(0, 5 * scale, EventKind::Compute, 1, 0, trace::kNoPath, 2)};
    return t;
}

TEST(TimelineData, PairedRowsSitSideBySideByCoreAndPathName) {
    auto emulated = smallTrace(trace::Source::Emulated, 1, {{"load", "dram", "sram"}});
    auto measured = smallTrace(trace::Source::Measured, 2, {{"store", "sram", "dram"}, {"load", "dram", "sram"}});
    const TimelineData data({emulated, measured});
    EXPECT_EQ(data.name(0), "emulated");
    EXPECT_EQ(data.name(1), "measured");
    EXPECT_EQ(data.endPs(), 60);

    const std::vector<Row> paired = data.rows(RowMode::Paired);
    ASSERT_EQ(paired.size(), 6u);
    EXPECT_EQ(paired[0].label, "core 0 \u00b7 emulated");
    EXPECT_EQ(paired[1].label, "core 0 \u00b7 measured");
    EXPECT_EQ(paired[2].label, "  load \u00b7 emulated");
    EXPECT_EQ(paired[3].label, "  load \u00b7 measured");
    EXPECT_EQ(paired[3].lanes.front().trace, 1u);
    EXPECT_EQ(data.lane(paired[3].lanes.front()).key.path, 1);
    EXPECT_EQ(paired[4].key.core, 1u);

    const std::vector<Row> overlaid = data.rows(RowMode::Overlaid);
    ASSERT_EQ(overlaid.size(), 3u);
    EXPECT_EQ(overlaid[1].label, "  load");
    EXPECT_EQ(overlaid[1].lanes.size(), 2u);
}

TEST(TimelineData, MatchesEventsByInstructionId) {
    auto a = smallTrace(trace::Source::Emulated, 1, {{"load", "dram", "sram"}});
    auto b = smallTrace(trace::Source::Measured, 3, {{"load", "dram", "sram"}});
    const TimelineData data({a, b}, {"predicted", ""});
    EXPECT_EQ(data.name(0), "predicted");
    const std::int64_t index = data.findById(1, 1);
    ASSERT_GE(index, 0);
    EXPECT_EQ(b->events[static_cast<std::size_t>(index)].endPs, 90);
    EXPECT_EQ(data.findById(1, 77), -1);
    EXPECT_EQ(data.findById(5, 1), -1);
}

TEST(TimelineData, OneTraceAndNoTraces) {
    const TimelineData one({smallTrace(trace::Source::Emulated, 1, {{"load", "dram", "sram"}})});
    EXPECT_EQ(one.rows(RowMode::Paired).front().label, "core 0");
    const TimelineData none({nullptr});
    EXPECT_TRUE(none.traces().empty());
    EXPECT_TRUE(none.rows(RowMode::Paired).empty());
    EXPECT_EQ(none.endPs(), 0);
}

} // namespace
} // namespace strata::timeline
