// The sample data's generator is splitmix64 itself: its reference outputs for seed 0, and one
// seed's stream is the same every time.
#include "base/SplitMix64.h"

#include <gtest/gtest.h>

namespace strata {
namespace {

TEST(SplitMix64, GivesTheReferenceStreamForSeedZero) {
    SplitMix64 random(0);
    EXPECT_EQ(random.next(), 0xe220a8397b1dcdafull);
    EXPECT_EQ(random.next(), 0x6e789e6aa1b965f4ull);
    EXPECT_EQ(random.next(), 0x06c45d188009454full);
}

TEST(SplitMix64, OneSeedGivesOneStream) {
    SplitMix64 a(42), b(42), c(43);
    for (int i = 0; i < 100; ++i) {
        const std::uint64_t x = a.next();
        EXPECT_EQ(x, b.next());
        EXPECT_NE(x, c.next());
    }
}

} // namespace
} // namespace strata
