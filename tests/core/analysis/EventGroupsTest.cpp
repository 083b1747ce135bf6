// Grouping the prediction errors: matched events of one kind by their instruction's label, the
// largest groups first, unlabelled ids under "other", events without a measured time left out.

#include "analysis/EventGroups.h"

#include <gtest/gtest.h>

namespace strata::analysis {
namespace {

MatchedEvent matched(std::uint32_t id, trace::EventKind kind, double predictedNs,
                     double measuredNs) {
    MatchedEvent e;
    e.id = id;
    e.kind = kind;
    e.predictedNs = predictedNs;
    e.measuredNs = measuredNs;
    e.error = measuredNs > 0 ? (predictedNs - measuredNs) / measuredNs : 0;
    return e;
}

TEST(EventGroups, ErrorsGoToTheirInstructionsLabelLargestGroupFirst) {
    const trace::EventLabels labels{"load/weight", "load/other", "load/weight",
                                    "conv",        "",           "load/weight"};
    const std::vector<MatchedEvent> events{
        matched(0, trace::EventKind::Transfer, 15, 10),  // load/weight +50%
        matched(1, trace::EventKind::Transfer, 8, 10),   // load/other -20%
        matched(2, trace::EventKind::Transfer, 10, 10),  // load/weight 0
        matched(3, trace::EventKind::Compute, 30, 20),   // a compute: not a transfer group
        matched(4, trace::EventKind::Transfer, 5, 10),   // no label: other
        matched(5, trace::EventKind::Transfer, 10, 0),   // no measured time: left out
        matched(9, trace::EventKind::Transfer, 20, 10)}; // beyond the labels: other
    const std::vector<ErrorGroup> groups =
        groupedErrors(events, labels, trace::EventKind::Transfer);
    ASSERT_EQ(groups.size(), 3u);
    EXPECT_EQ(groups[0].label, "load/weight");
    EXPECT_EQ(groups[0].errors, (std::vector<double>{0.5, 0.0}));
    EXPECT_EQ(groups[1].label, "other");
    EXPECT_EQ(groups[1].errors, (std::vector<double>{-0.5, 1.0}));
    EXPECT_EQ(groups[2].label, "load/other");
    EXPECT_EQ(groups[2].errors, (std::vector<double>{-0.2}));

    const std::vector<ErrorGroup> computes =
        groupedErrors(events, labels, trace::EventKind::Compute);
    ASSERT_EQ(computes.size(), 1u);
    EXPECT_EQ(computes[0].label, "conv");
    EXPECT_EQ(computes[0].errors, (std::vector<double>{0.5}));
    EXPECT_TRUE(groupedErrors({}, labels, trace::EventKind::Transfer).empty());
}

} // namespace
} // namespace strata::analysis
