// Max-min fair sharing, by hand.

#include "emulator/BandwidthSharing.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

TEST(BandwidthSharing, EqualFlowsSplitAResource) {
    BandwidthSharing sharing({16});
    const ResourceUse port[] = {{0, 1}};
    std::vector<FlowDemand> flows(4, FlowDemand{16, port});
    std::vector<double> rates(4);
    sharing.share(flows, rates);
    for (double r : rates) EXPECT_DOUBLE_EQ(r, 4);
}

TEST(BandwidthSharing, ACappedFlowLeavesTheRestToOthers) {
    BandwidthSharing sharing({16});
    const ResourceUse port[] = {{0, 1}};
    std::vector<FlowDemand> flows{{2, port}, {100, port}};
    std::vector<double> rates(2);
    sharing.share(flows, rates);
    EXPECT_DOUBLE_EQ(rates[0], 2);
    EXPECT_DOUBLE_EQ(rates[1], 14);
}

TEST(BandwidthSharing, OneInstanceSharingGivesTheGeneralAnswerBitForBit) {
    // Flows all on one instance take a shortcut; the same flows with a second, never-full
    // instance take the general path. Uneven caps make several freezing rounds.
    BandwidthSharing sharing({100, 1e9});
    const ResourceUse one[] = {{0, 1}};
    const ResourceUse two[] = {{0, 1}, {1, 1}};
    const std::vector<double> caps{7.3, 31.1, 3.3, 90, 12.7, 12.7, 45.5, 0.9, 25};
    std::vector<FlowDemand> alone, general;
    for (double cap : caps) {
        alone.push_back({cap, one});
        general.push_back({cap, two});
    }
    std::vector<double> fast(caps.size()), slow(caps.size());
    sharing.share(alone, fast);
    sharing.share(general, slow);
    EXPECT_EQ(fast, slow);
    double sum = 0;
    for (double r : fast) sum += r;
    EXPECT_NEAR(sum, 100, 1e-9); // the instance is full: caps add up to more than 100
    EXPECT_DOUBLE_EQ(fast[7], 0.9);
}

TEST(BandwidthSharing, ADemandWithMembersIsSharedAsThatManyFlows) {
    // Three identical flows and a capped one on a shared instance, next to a flow on a second
    // instance; the same with the three as one demand of three members.
    BandwidthSharing sharing({30, 20});
    const ResourceUse both[] = {{0, 1}, {1, 0.5}};
    const ResourceUse first[] = {{0, 1}};
    const ResourceUse second[] = {{1, 1}};
    std::vector<FlowDemand> apart{{100, both}, {100, both}, {100, both}, {3, first}, {5, second}};
    std::vector<FlowDemand> together{{100, both, 3}, {3, first}, {5, second}};
    std::vector<double> each(apart.size()), grouped(together.size());
    sharing.share(apart, each);
    sharing.share(together, grouped);
    // The caps freeze first (3, then 5). Then instance 0 fills at 9 each (3 x 9 + 3 = 30) before
    // instance 1 would (3 x 0.5 x 10 + 5 = 20).
    for (int i = 0; i < 3; ++i) EXPECT_DOUBLE_EQ(each[static_cast<std::size_t>(i)], 9);
    EXPECT_DOUBLE_EQ(each[3], 3);
    EXPECT_DOUBLE_EQ(each[4], 5);
    EXPECT_DOUBLE_EQ(grouped[0], each[0]);
    EXPECT_DOUBLE_EQ(grouped[1], each[3]);
    EXPECT_DOUBLE_EQ(grouped[2], each[4]);
}

TEST(BandwidthSharing, FlowsOnDisjointResourcesDoNotInteract) {
    BandwidthSharing sharing({16, 8});
    const ResourceUse a[] = {{0, 1}};
    const ResourceUse b[] = {{1, 1}};
    std::vector<FlowDemand> flows{{100, a}, {100, b}};
    std::vector<double> rates(2);
    sharing.share(flows, rates);
    EXPECT_DOUBLE_EQ(rates[0], 16);
    EXPECT_DOUBLE_EQ(rates[1], 8);
}

TEST(BandwidthSharing, InterleavedFlowsOnSeveralInstancesShareEachInstanceAlone) {
    // Flows of three instances, interleaved, with uneven caps: each flow gets exactly what its
    // instance's flows would get shared on their own, at its own place in the rates.
    const std::vector<double> capacities{100, 40, 64};
    BandwidthSharing sharing(capacities);
    const ResourceUse on[3][1] = {{{0, 1}}, {{1, 1}}, {{2, 1}}};
    const std::vector<std::pair<int, double>> flows{{2, 50}, {0, 7.3}, {1, 31.1}, {0, 90}, {2, 3.3},
                                                    {1, 12.7}, {0, 45.5}, {2, 64}, {1, 0.9}};
    std::vector<FlowDemand> mixed;
    for (const auto& [instance, cap] : flows) mixed.push_back({cap, on[instance]});
    std::vector<double> rates(flows.size());
    sharing.share(mixed, rates);
    for (int instance = 0; instance < 3; ++instance) {
        BandwidthSharing alone(capacities);
        std::vector<FlowDemand> own;
        std::vector<std::size_t> where;
        for (std::size_t i = 0; i < flows.size(); ++i)
            if (flows[i].first == instance) {
                own.push_back(mixed[i]);
                where.push_back(i);
            }
        std::vector<double> expected(own.size());
        alone.share(own, expected);
        for (std::size_t k = 0; k < own.size(); ++k) EXPECT_EQ(rates[where[k]], expected[k]) << "flow " << where[k];
    }
    // By hand: instance 2 (64): 3.3 capped, the other two 30.35 each; instance 1 (40): 0.9 and
    // 12.7 capped, 31.1 gets the 26.4 left; instance 0 (100): 7.3 and 45.5 capped, 90 gets 47.2.
    EXPECT_DOUBLE_EQ(rates[4], 3.3);
    EXPECT_DOUBLE_EQ(rates[0], 30.35);
    EXPECT_DOUBLE_EQ(rates[7], 30.35);
    EXPECT_DOUBLE_EQ(rates[8], 0.9);
    EXPECT_DOUBLE_EQ(rates[2], 26.4);
    EXPECT_DOUBLE_EQ(rates[3], 47.2);
    // The scratch space is clean afterwards: a lone flow on instance 0 gets all of it.
    std::vector<FlowDemand> lone{{1000, on[0]}};
    std::vector<double> loneRate(1);
    sharing.share(lone, loneRate);
    EXPECT_DOUBLE_EQ(loneRate[0], 100);
}

TEST(BandwidthSharing, ABottleneckElsewhereFreesShareHere) {
    // Flow 0 uses r0 (10) and r1 (4); flow 1 uses r0 only. r1 limits flow 0 to 4, so flow 1
    // gets the 6 left on r0.
    BandwidthSharing sharing({10, 4});
    const ResourceUse both[] = {{0, 1}, {1, 1}};
    const ResourceUse first[] = {{0, 1}};
    std::vector<FlowDemand> flows{{100, both}, {100, first}};
    std::vector<double> rates(2);
    sharing.share(flows, rates);
    EXPECT_DOUBLE_EQ(rates[0], 4);
    EXPECT_DOUBLE_EQ(rates[1], 6);
}

TEST(BandwidthSharing, WeightsCountABroadcastsShare) {
    // A broadcast spread over two instances (weight 1/2 each) and a flow on instance 1:
    // 0.5 x + y <= 16 with x = y gives 32/3 each.
    BandwidthSharing sharing({16, 16});
    const ResourceUse broadcast[] = {{0, 0.5}, {1, 0.5}};
    const ResourceUse local[] = {{1, 1}};
    std::vector<FlowDemand> flows{{32, broadcast}, {16, local}};
    std::vector<double> rates(2);
    sharing.share(flows, rates);
    EXPECT_DOUBLE_EQ(rates[0], 32.0 / 3);
    EXPECT_DOUBLE_EQ(rates[1], 32.0 / 3);
}

TEST(BandwidthSharing, ScratchIsResetBetweenCalls) {
    BandwidthSharing sharing({16});
    const ResourceUse port[] = {{0, 1}};
    std::vector<double> rates(2);
    std::vector<FlowDemand> two(2, FlowDemand{16, port});
    sharing.share(two, rates);
    std::vector<FlowDemand> one(1, FlowDemand{16, port});
    sharing.share(one, rates);
    EXPECT_DOUBLE_EQ(rates[0], 16);
}

} // namespace
} // namespace strata::emulator
