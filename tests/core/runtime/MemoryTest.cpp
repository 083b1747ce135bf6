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

TEST(Buffer, ReusedForFewerBytesKeepsItsBytesAndTakesTheNewSize) {
    Buffer buffer(4096);
    std::memset(buffer.data(), 0x33, buffer.size());
    const unsigned char* before = buffer.data();
    ASSERT_TRUE(buffer.reuseFor(100));
    EXPECT_EQ(buffer.size(), 100u); // a run's boxes are checked against what it asked for
    EXPECT_EQ(buffer.data(), before);
    EXPECT_EQ(buffer.data()[99], 0x33);
    ASSERT_TRUE(buffer.reuseFor(4096)); // back up to what it was made with
    EXPECT_EQ(buffer.size(), 4096u);
    EXPECT_FALSE(buffer.reuseFor(4097));
    EXPECT_EQ(buffer.size(), 4096u);
    Buffer none;
    EXPECT_FALSE(none.reuseFor(0));
}

TEST(Memories, SizedForARunKeepWhatHasRoomAndReplaceWhatHasNot) {
    Memories memories;
    memories.sizeFor(8192, 1024, 2);
    ASSERT_EQ(memories.scratch.size(), 2u);
    EXPECT_EQ(memories.main.size(), 8192u);
    EXPECT_EQ(memories.scratch[1].size(), 1024u);
    const unsigned char* main = memories.main.data();
    const unsigned char* scratch = memories.scratch[0].data();

    memories.sizeFor(100, 1024, 2); // a smaller program: the same buffers
    EXPECT_EQ(memories.main.data(), main);
    EXPECT_EQ(memories.main.size(), 100u);
    EXPECT_EQ(memories.scratch[0].data(), scratch);

    memories.sizeFor(1u << 16, 1024, 3); // a larger one on more cores
    EXPECT_EQ(memories.main.size(), 1u << 16);
    ASSERT_EQ(memories.scratch.size(), 3u);
    EXPECT_EQ(memories.scratch[2].size(), 1024u);
    EXPECT_EQ(memories.scratch[0].data(), scratch);

    memories.sizeFor(1, 1024, 0); // no cores given: one scratch buffer, as a run has
    EXPECT_EQ(memories.scratch.size(), 1u);
}

} // namespace
} // namespace strata::runtime
