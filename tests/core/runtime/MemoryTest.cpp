// The runtime's buffers (runtime::Buffer): aligned for cache lines, and from 2 MiB on in whole
// huge pages the kernel is asked to back them with. Whether it does is the machine's setting
// (transparent huge pages), so only the allocation is checked here.

#include "runtime/Memory.h"

#include <cstdint>
#include <cstring>
#include <gtest/gtest.h>

namespace strata::runtime {
namespace {

TEST(Buffer, SmallBuffersAreCacheLineAligned) {
    const Buffer small(1000);
    EXPECT_EQ(small.size(), 1000u);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(small.data()) % 64, 0u);
    EXPECT_FALSE(small.hugePages());
    const Buffer empty(0);
    EXPECT_NE(empty.data(), nullptr);
}

TEST(Buffer, LargeBuffersStartOnAHugePageAndAreUsableToTheirEnd) {
    const std::uint64_t bytes = (3u << 20) + 5; // spans two huge pages
    Buffer large(bytes);
    EXPECT_EQ(large.size(), bytes);
#if defined(__linux__)
    EXPECT_TRUE(large.hugePages());
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(large.data()) % (2u << 20), 0u);
#endif
    std::memset(large.data(), 0x5a, bytes);
    EXPECT_EQ(large.data()[bytes - 1], 0x5a);
    Buffer moved = std::move(large); // freed once, by the owner
    EXPECT_EQ(moved.data()[0], 0x5a);
}

TEST(Buffer, BytesEvictedFromTheCachesKeepTheirValues) {
    Buffer buffer(10000);
    for (std::size_t i = 0; i < buffer.size(); ++i)
        buffer.data()[i] = static_cast<unsigned char>(i * 7);
    evictFromCaches(buffer.data() + 3, 9990); // neither end on a cache line's start
    evictFromCaches(buffer.data(), 0);
    for (std::size_t i = 0; i < buffer.size(); ++i)
        ASSERT_EQ(buffer.data()[i], static_cast<unsigned char>(i * 7)) << "byte " << i;
}

} // namespace
} // namespace strata::runtime
