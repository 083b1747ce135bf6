// Which transfers compete alike (flow classes), from the target's topology.

#include "EmulatorFixtures.h"
#include "emulator/Contention.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

constexpr std::size_t kLoad = 0, kStore = 1, kBcast = 3; // paths of the tiny target

TEST(Contention, CoresOfOneGroupShareAFlowClassOnAGroupPath) {
    auto target = test::tinyTarget();
    target.groups = 2;
    target.coresPerGroup = 2;
    const Contention contention(target);
    EXPECT_EQ(contention.flowClass(kLoad, 0), contention.flowClass(kLoad, 1));
    EXPECT_NE(contention.flowClass(kLoad, 1), contention.flowClass(kLoad, 2));
    EXPECT_EQ(contention.flowClass(kLoad, 2), contention.flowClass(kLoad, 3));
    // Same port, another path (its own cap): another class.
    EXPECT_NE(contention.flowClass(kLoad, 0), contention.flowClass(kStore, 0));
    // A broadcast uses every group's port from any core: one class.
    EXPECT_EQ(contention.flowClass(kBcast, 0), contention.flowClass(kBcast, 3));
}

TEST(Contention, CoreScopedResourcesSeparateEveryCore) {
    auto target = test::tinyTarget();
    target.groups = 1;
    target.coresPerGroup = 3;
    target.resources[0].scope = target::Scope::Core; // `port`, used by load and store
    const Contention contention(target);
    EXPECT_NE(contention.flowClass(kLoad, 0), contention.flowClass(kLoad, 1));
    EXPECT_NE(contention.flowClass(kLoad, 1), contention.flowClass(kLoad, 2));
    // Classes are numbered densely: 4 paths; load and store 3 each, aux (group) 1, bcast 1.
    EXPECT_EQ(contention.flowClasses(), 8u);
}

} // namespace
} // namespace strata::emulator
