// CacheChurn: the buffers calibration's cores write before every pass (CacheChurn.h). What it
// does to the caches is the machine's; here, that each core gets its own buffer of the size
// asked for, only when it writes, and that cores past the count and a zero size write nothing.

#include "runtime/CacheChurn.h"

#include <gtest/gtest.h>

namespace strata::runtime {
namespace {

TEST(CacheChurn, EachCoreThatWritesGetsOneBufferOfTheSizeAsked) {
    CacheChurn churn(3u << 20, 2);
    EXPECT_EQ(churn.bytesPerCore(), 3u << 20);
    EXPECT_EQ(churn.allocatedBytes(), 0u); // nothing before a core writes
    churn.writeFrom(1);
    EXPECT_EQ(churn.allocatedBytes(), 3u << 20);
    churn.writeFrom(1); // the same buffer again
    EXPECT_EQ(churn.allocatedBytes(), 3u << 20);
    churn.writeFrom(0);
    EXPECT_EQ(churn.allocatedBytes(), 6u << 20);
    EXPECT_EQ(churn.writes(), 3u);
}

TEST(CacheChurn, CoresPastTheCountAndAZeroSizeWriteNothing) {
    CacheChurn churn(1u << 20, 1);
    churn.writeFrom(1);
    churn.writeFrom(7);
    EXPECT_EQ(churn.allocatedBytes(), 0u);
    EXPECT_EQ(churn.writes(), 0u);

    CacheChurn none(0, 4);
    none.writeFrom(0);
    EXPECT_EQ(none.allocatedBytes(), 0u);
}

} // namespace
} // namespace strata::runtime
