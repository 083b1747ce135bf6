// Which loads read bytes the issuing core moved recently enough to still be cached, which
// stores write lines it still holds (emulator::markCachedReads, through checkProgram), which loads
// read rows the cores stored before a barrier, another core among them (markSharedReads), which
// stores write lines another core has read since (chargeStoresIntoOtherCoresLines), and what that
// does to their timing, on the tiny target of EmulatorFixtures.h (1 MiB of SRAM per core:
// the reuse distance).

#include "EmulatorFixtures.h"
#include "emulator/Emulator.h"
#include "emulator/ProgramCheck.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

using target::ReadKind;
using test::ProgramBuilder;
constexpr ir::ValueId kX{0};   // tinyGraph's [1, 1024] activation
constexpr std::uint64_t kMiB = 1ull << 20;

target::Target withCachedReads() {
    target::Target target = test::tinyTarget();
    target.paths[0].cachedReads = target::ReadFigures{64, 10};
    return target;
}

target::Target withCachedWrites() {
    target::Target target = test::tinyTarget();
    target.paths[1].cachedWrites = target::ReadFigures{64, 10};
    return target;
}

// Columns [begin, end) of x.
tiling::Region columns(std::int64_t begin, std::int64_t end) { return {{0, 1}, {begin, end}}; }

class Program {
  public:
    explicit Program(int cores = 2) : m_builder(cores) {}

    // A store of x's `region` by `core`, or a load of it (`bytes`: its size when not 0), waited
    // on at once unless `wait` is false. Its main-memory side starts at byte 0 unless set with
    // at().
    compiler::InstrId store(int core, tiling::Region region, std::uint64_t bytes = 0) {
        return move(core, "store", "SRAM", "DRAM", std::move(region), bytes, 0, true);
    }
    compiler::InstrId storeAsync(int core, tiling::Region region, std::uint64_t bytes, int tag) {
        return move(core, "store", "SRAM", "DRAM", std::move(region), bytes, tag, false);
    }
    // Places transfer `id`'s main-memory side at `offset`.
    void at(compiler::InstrId id, std::uint64_t offset) {
        for (Shape& s : m_transfers)
            if (s.id == id)
                s.offset = offset;
        rebuild();
    }
    compiler::InstrId load(int core, tiling::Region region, std::uint64_t bytes = 0, int tag = 0, bool wait = true) {
        return move(core, "load", "DRAM", "SRAM", std::move(region), bytes, tag, wait);
    }
    void wait(int core, int tag) {
        m_builder.wait(core, tag);
        rebuild();
    }
    void barrier() {
        m_builder.barrier();
        rebuild();
    }

    std::vector<ReadKind> reads(const target::Target& target) const {
        std::vector<Diagnostic> diagnostics;
        const CheckedProgram checked = checkProgram(m_program, target, test::tinyGraph(), diagnostics);
        EXPECT_TRUE(diagnostics.empty()) << diagnostics.front().toString();
        std::vector<ReadKind> kinds;
        for (const Step& step : checked.steps) kinds.push_back(step.read);
        return kinds;
    }

    std::vector<Step> steps(const target::Target& target) const {
        std::vector<Diagnostic> diagnostics;
        CheckedProgram checked = checkProgram(m_program, target, test::tinyGraph(), diagnostics);
        EXPECT_TRUE(diagnostics.empty()) << diagnostics.front().toString();
        return std::move(checked.steps);
    }

    const compiler::Program& program() const { return m_program; }

  private:
    compiler::InstrId move(int core, const char* path, const char* from, const char* to, tiling::Region region,
                           std::uint64_t bytes, int tag, bool wait) {
        const std::uint64_t size = bytes ? bytes : 4 * static_cast<std::uint64_t>(tiling::regionElements(region));
        const compiler::InstrId id = m_builder.transfer(core, path, size, tag);
        if (wait) m_builder.wait(core, tag);
        m_transfers.push_back({id, from, to, std::move(region), 0});
        rebuild();
        return id;
    }

    // The builder's program with every transfer's value, region and memories set.
    void rebuild() {
        m_program = m_builder.program();
        for (const Shape& s : m_transfers) apply(s);
    }

    struct Shape {
        compiler::InstrId id;
        const char* from;
        const char* to;
        tiling::Region region;
        std::uint64_t offset;
    };
    void apply(const Shape& s) {
        auto& t = std::get<compiler::Transfer>(m_program.instructions[s.id].body);
        t.value = kX;
        t.region = s.region;
        t.source.memory = s.from;
        t.destination.memory = s.to;
        (std::string(s.from) == "DRAM" ? t.source : t.destination).offset = s.offset;
    }

    ProgramBuilder m_builder;
    compiler::Program m_program;
    std::vector<Shape> m_transfers;
};

target::Target withSharedReads() {
    target::Target target = withCachedReads();
    target.paths[0].sharedReads = target::ReadFigures{32, 50};
    return target;
}

TEST(SharedReads, RowsBothCoresStoredBeforeABarrierAreShared) {
    Program early;
    early.store(0, columns(0, 512));
    early.store(1, columns(512, 1024));
    const auto before = early.load(0, columns(0, 1024)); // core 1's half is not yet stored for sure
    EXPECT_EQ(early.reads(withSharedReads())[before], ReadKind::Other);

    Program p;
    p.store(0, columns(0, 512));
    p.store(1, columns(512, 1024));
    p.barrier();
    const auto both = p.load(0, columns(0, 1024));
    const auto own = p.load(0, columns(0, 512)); // stored, and loaded a moment ago, by core 0
    const auto other = p.load(1, columns(0, 512));
    const auto kinds = p.reads(withSharedReads());
    EXPECT_EQ(kinds[both], ReadKind::Shared);
    EXPECT_EQ(kinds[own], ReadKind::Cached);   // the core's own rows: its own cache
    EXPECT_EQ(kinds[other], ReadKind::Shared); // the other core's rows alone
    EXPECT_EQ(p.reads(withCachedReads())[both], ReadKind::Other); // no figures: as any read
}

TEST(SharedReads, NinetyPercentMustBeStoredAndTheStoringCoresTrafficEvictsThem) {
    Program p;
    p.store(1, columns(0, 460));
    p.barrier();
    const auto most = p.load(0, columns(0, 500)); // 460 of 500 stored: 92%
    const auto half = p.load(1, columns(0, 920)); // 50% (core 1: core 0 just loaded 500 of them)
    const auto kinds = p.reads(withSharedReads());
    EXPECT_EQ(kinds[most], ReadKind::Shared);
    EXPECT_EQ(kinds[half], ReadKind::Other);

    Program evicted;
    evicted.store(1, columns(0, 460));
    evicted.load(1, columns(512, 1024), kMiB); // core 1 moves its 1 MiB of working memory
    evicted.load(1, columns(512, 1024), 4);    // and more: its store is gone
    evicted.barrier();
    const auto gone = evicted.load(0, columns(0, 460));
    EXPECT_EQ(evicted.reads(withSharedReads())[gone], ReadKind::Other);
}

TEST(SharedReads, ASharedReadTakesItsFiguresAndNoPort) {
    Program p;
    p.store(1, columns(0, 1024));
    p.barrier();
    const auto load = p.load(0, columns(0, 1024)); // 4,096 bytes
    auto trace = emulate(p.program(), withSharedReads(), test::tinyGraph());
    ASSERT_TRUE(trace.ok()) << trace.diagnostics().front().toString();
    const trace::Event& e = trace->events[load];
    EXPECT_EQ(e.endPs - e.startPs, (50 + 4096 / 32) * 1000); // latency 50, 32 B/cycle
}

TEST(CachedReads, ALoadOfWhatTheSameCoreJustStoredIsCached) {
    Program p;
    p.store(0, columns(0, 512));
    const auto load = p.load(0, columns(0, 512));
    EXPECT_EQ(p.reads(withCachedReads())[load], ReadKind::Cached);
}

TEST(CachedReads, ALoadOfWhatTheSameCoreJustLoadedIsCachedToo) {
    // DenseNet's layers each read their block's concatenated features again: the core holds
    // the lines it read a moment ago as much as those it wrote.
    Program p;
    const auto first = p.load(0, columns(0, 512));
    const auto again = p.load(0, columns(0, 512));
    const auto kinds = p.reads(withCachedReads());
    EXPECT_EQ(kinds[first], ReadKind::Other);
    EXPECT_EQ(kinds[again], ReadKind::Cached);
}

TEST(CachedReads, ARegionLoadedAgainIsNotCountedTwice) {
    // 0-460 stored, then 0-500 loaded: 500 of 0-920's elements held (54%), not 960.
    Program p;
    p.store(0, columns(0, 460));
    p.load(0, columns(0, 500));
    const auto wider = p.load(0, columns(0, 920));
    const auto again = p.load(0, columns(100, 900)); // all in the region loaded just before
    const auto kinds = p.reads(withCachedReads());
    EXPECT_EQ(kinds[wider], ReadKind::Other);
    EXPECT_EQ(kinds[again], ReadKind::Cached);
}

TEST(CachedReads, WhatTheOtherCoreLoadedIsNot) {
    Program p;
    p.load(1, columns(0, 512));
    const auto load = p.load(0, columns(0, 512));
    EXPECT_EQ(p.reads(withCachedReads())[load], ReadKind::Other);
}

TEST(CachedReads, WithoutTheFiguresNothingIsCached) {
    Program p;
    p.store(0, columns(0, 512));
    const auto load = p.load(0, columns(0, 512));
    EXPECT_EQ(p.reads(test::tinyTarget())[load], ReadKind::Other);
}

TEST(CachedReads, WhatTheOtherCoreStoredIsNot) {
    Program p;
    p.store(1, columns(0, 512));
    const auto load = p.load(0, columns(0, 512));
    EXPECT_EQ(p.reads(withCachedReads())[load], ReadKind::Other);
}

TEST(CachedReads, NinetyPercentOfTheRegionMustBeTheCoresOwn) {
    Program p;
    p.store(0, columns(0, 460));
    p.store(1, columns(460, 1024));
    const auto most = p.load(0, columns(0, 500));  // 460 of 500 own: 92%
    const auto half = p.load(0, columns(0, 920));  // 460 of 920: 50%
    const auto kinds = p.reads(withCachedReads());
    EXPECT_EQ(kinds[most], ReadKind::Cached);
    EXPECT_EQ(kinds[half], ReadKind::Other);
}

TEST(CachedReads, AStoreIsEvictedOnceTheCoreHasMovedMoreThanItsWorkingMemory) {
    // After a store, the core moves exactly its 1 MiB of working memory: the store is still cached.
    Program kept;
    kept.store(0, columns(0, 256));
    kept.load(0, columns(512, 1024), kMiB);
    const auto still = kept.load(0, columns(0, 256));
    EXPECT_EQ(kept.reads(withCachedReads())[still], ReadKind::Cached);
    // Four bytes more and it is evicted; a later store is not.
    Program evicted;
    evicted.store(0, columns(0, 256));
    evicted.store(0, columns(256, 512));
    evicted.load(0, columns(512, 1024), kMiB - 1020);
    const auto second = evicted.load(0, columns(256, 512)); // (this load moves 1 KiB more too)
    const auto first = evicted.load(0, columns(0, 256));
    const auto kinds = evicted.reads(withCachedReads());
    EXPECT_EQ(kinds[first], ReadKind::Other);
    EXPECT_EQ(kinds[second], ReadKind::Cached);
}

TEST(CachedReads, ACachedLoadTakesTheCachedFigures) {
    Program p;
    p.store(0, columns(0, 512)); // 2,048 bytes: 100 + 2048 / 16 = 228 cycles
    const auto load = p.load(0, columns(0, 512));
    auto trace = emulate(p.program(), withCachedReads(), test::tinyGraph());
    ASSERT_TRUE(trace.ok()) << trace.diagnostics().front().toString();
    const trace::Event& e = trace->events[load];
    // Latency 10, then 2,048 bytes at 64 B/cycle: faster than the 16 B/cycle port, which a
    // read out of the core's own cache does not occupy.
    EXPECT_EQ(e.endPs - e.startPs, (10 + 2048 / 64) * 1000);
}

TEST(CachedReads, ACachedLoadStoredFartherBackThanThePrivateCacheReadsAtTheSpillRate) {
    // A private cache of 64 KiB; cached reads at 64 B/cycle, their bytes past 4 KiB at 16.
    target::Target target = withCachedReads();
    target.privateCacheBytes = 64 * 1024;
    target.paths[0].cachedReads->ramp = {0, 0, 4096, 16};
    Program near(1);
    near.store(0, columns(0, 512)); // 2,048 bytes
    const auto soon = near.load(0, columns(0, 512));
    Program far(1);
    far.store(0, columns(0, 512));
    far.load(0, columns(512, 1024), 64 * 1024 + 4); // past the private cache's worth of bytes
    const auto later = far.load(0, columns(0, 512));
    EXPECT_EQ(far.reads(target)[later], ReadKind::Cached); // still within working memory
    auto fast = emulate(near.program(), target, test::tinyGraph());
    auto slow = emulate(far.program(), target, test::tinyGraph());
    ASSERT_TRUE(fast.ok() && slow.ok());
    // 10 + 2048 / 64 = 42 cycles in the private cache; from beyond it every byte at 16 B/cycle:
    // 10 + 2048 / 16 = 138.
    EXPECT_EQ(fast->events[soon].endPs - fast->events[soon].startPs, 42 * 1000);
    EXPECT_EQ(slow->events[later].endPs - slow->events[later].startPs, 138 * 1000);
}

TEST(CachedReads, ACachedLoadLeavesThePortToTheOthers) {
    // After its store, core 0 issues a cached load of 32 KiB and an uncached one of 4 KiB
    // together. The uncached one has the 16 B/cycle port to itself: 100 + 4096 / 16 = 356
    // cycles (sharing it, each would get 8 B/cycle). The cached one: 10 + 32768 / 64 = 522.
    Program p(1);
    p.store(0, columns(0, 512));
    const auto cached = p.load(0, columns(0, 512), 32768, /*tag=*/1, /*wait=*/false);
    const auto uncached = p.load(0, columns(512, 1024), 4096, /*tag=*/2, /*wait=*/false);
    p.wait(0, 1);
    p.wait(0, 2);
    auto trace = emulate(p.program(), withCachedReads(), test::tinyGraph());
    ASSERT_TRUE(trace.ok()) << trace.diagnostics().front().toString();
    const trace::Event& u = trace->events[uncached];
    const trace::Event& c = trace->events[cached];
    EXPECT_EQ(u.endPs - u.startPs, 356 * 1000);
    EXPECT_EQ(c.endPs - c.startPs, 522 * 1000);
}

TEST(CachedReads, CachedLoadsInFlightTogetherFinishOneAfterTheOther) {
    // Nothing shared paces them, each moves at 64 B/cycle after its 10 cycles: 2,048 bytes end
    // at 42, 4,096 at 74 (the class must time its next member when the first leaves).
    Program p(1);
    p.store(0, columns(0, 512));
    const auto small = p.load(0, columns(0, 512), 2048, /*tag=*/1, /*wait=*/false);
    const auto large = p.load(0, columns(0, 512), 4096, /*tag=*/2, /*wait=*/false);
    p.wait(0, 1);
    p.wait(0, 2);
    auto trace = emulate(p.program(), withCachedReads(), test::tinyGraph());
    ASSERT_TRUE(trace.ok()) << trace.diagnostics().front().toString();
    EXPECT_EQ(trace->events[small].endPs - trace->events[small].startPs, 42 * 1000);
    EXPECT_EQ(trace->events[large].endPs - trace->events[large].startPs, 74 * 1000);
}

// Stores: by address, whatever tensor the bytes held (tinyGraph has one).

TEST(CachedWrites, AStoreIntoBytesTheSameCoreJustLoadedIsCached) {
    Program p;
    const auto load = p.load(0, columns(0, 512));
    const auto store = p.store(0, columns(0, 512));
    p.at(load, 4096);
    p.at(store, 4096);
    EXPECT_EQ(p.reads(withCachedWrites())[store], ReadKind::CachedWrite);
}

TEST(CachedWrites, WithoutTheFiguresOrIntoOtherBytesItIsNot) {
    Program p;
    const auto load = p.load(0, columns(0, 512)); // bytes 0..2047
    const auto same = p.store(0, columns(0, 512));
    const auto apart = p.store(0, columns(0, 512));
    p.at(apart, 2048);
    EXPECT_EQ(p.reads(test::tinyTarget())[same], ReadKind::Other);
    const auto kinds = p.reads(withCachedWrites());
    EXPECT_EQ(kinds[load], ReadKind::Other);
    EXPECT_EQ(kinds[same], ReadKind::CachedWrite);
    EXPECT_EQ(kinds[apart], ReadKind::Other);
}

TEST(CachedWrites, WhatTheOtherCoreMovedIsNot) {
    Program p;
    p.load(1, columns(0, 512));
    const auto store = p.store(0, columns(0, 512));
    EXPECT_EQ(p.reads(withCachedWrites())[store], ReadKind::Other);
}

TEST(CachedWrites, NinetyPercentOfItsBytesMustBeRecent) {
    Program p;
    p.store(0, columns(0, 460));                   // bytes 0..1839
    const auto most = p.store(0, columns(0, 500)); // 1,840 of 2,000 recent: 92%
    const auto half = p.store(0, columns(0, 500));
    p.at(half, 1000); // 1000..2999: 1,000 of 2,000 (the store before left 0..1999)
    const auto kinds = p.reads(withCachedWrites());
    EXPECT_EQ(kinds[most], ReadKind::CachedWrite);
    EXPECT_EQ(kinds[half], ReadKind::Other);
}

TEST(CachedWrites, BytesAreForgottenOnceTheCoreHasMovedMoreThanItsWorkingMemory) {
    Program kept;
    kept.load(0, columns(0, 256)); // bytes 0..1023
    const auto far = kept.load(0, columns(512, 1024), kMiB);
    kept.at(far, 8192);
    const auto still = kept.store(0, columns(0, 256));
    EXPECT_EQ(kept.reads(withCachedWrites())[still], ReadKind::CachedWrite);
    Program forgotten;
    forgotten.load(0, columns(0, 256));
    const auto farther = forgotten.load(0, columns(512, 1024), kMiB + 4);
    forgotten.at(farther, 8192);
    const auto gone = forgotten.store(0, columns(0, 256));
    EXPECT_EQ(forgotten.reads(withCachedWrites())[gone], ReadKind::Other);
}

TEST(CachedWrites, ACachedWriteTakesItsFiguresAndLeavesThePortToTheOthers) {
    // Core 0 stores 32 KiB into bytes it has just loaded and 4 KiB elsewhere, together. The
    // second has the 16 B/cycle port to itself: 100 + 4096 / 16 = 356 cycles. The cached one:
    // 10 + 32768 / 64 = 522.
    Program p(1);
    p.load(0, columns(0, 1024), 32768);
    const auto cached = p.storeAsync(0, columns(0, 1024), 32768, /*tag=*/1);
    const auto other = p.storeAsync(0, columns(0, 1024), 4096, /*tag=*/2);
    p.at(other, 65536);
    p.wait(0, 1);
    p.wait(0, 2);
    auto trace = emulate(p.program(), withCachedWrites(), test::tinyGraph());
    ASSERT_TRUE(trace.ok()) << trace.diagnostics().front().toString();
    EXPECT_EQ(trace->events[other].endPs - trace->events[other].startPs, 356 * 1000);
    EXPECT_EQ(trace->events[cached].endPs - trace->events[cached].startPs, 522 * 1000);
}

TEST(CachedWrites, AStoreIntoBytesMovedFartherBackThanThePrivateCacheWritesAtTheSpillRate) {
    // A private cache of 64 KiB; cached writes at 64 B/cycle, their bytes past 4 KiB at 16.
    target::Target target = withCachedWrites();
    target.privateCacheBytes = 64 * 1024;
    target.paths[1].cachedWrites->ramp = {0, 0, 4096, 16};
    Program near(1);
    near.load(0, columns(0, 512)); // bytes 0..2047
    const auto soon = near.store(0, columns(0, 512));
    Program far(1);
    far.load(0, columns(0, 512));
    const auto between = far.load(0, columns(512, 1024), 64 * 1024 + 4); // past the private cache
    far.at(between, 8192);
    const auto later = far.store(0, columns(0, 512));
    EXPECT_EQ(far.reads(target)[later], ReadKind::CachedWrite); // still within working memory
    auto fast = emulate(near.program(), target, test::tinyGraph());
    auto slow = emulate(far.program(), target, test::tinyGraph());
    ASSERT_TRUE(fast.ok() && slow.ok());
    // 10 + 2048 / 64 = 42 cycles into the private cache; beyond it every byte at 16 B/cycle:
    // 10 + 2048 / 16 = 138. Without a spill, the same 42.
    EXPECT_EQ(fast->events[soon].endPs - fast->events[soon].startPs, 42 * 1000);
    EXPECT_EQ(slow->events[later].endPs - slow->events[later].startPs, 138 * 1000);
    target.paths[1].cachedWrites->ramp = {};
    auto plain = emulate(far.program(), target, test::tinyGraph());
    ASSERT_TRUE(plain.ok());
    EXPECT_EQ(plain->events[later].endPs - plain->events[later].startPs, 42 * 1000);
}

// Rates by reuse distance (target::DistanceRate): 32 B/cycle at 1 KiB of traffic since, 16 at
// 4 KiB; the figures' own 64 within the core's cache.
const std::vector<target::DistanceRate> kCurve{{1024, 32}, {4096, 16}};

TEST(CachedReads, ACachedLoadPastThePrivateCachePaysTheRateForItsReuseDistance) {
    target::Target target = withCachedReads();
    target.privateCacheBytes = 1024;
    target.paths[0].cachedReads->ramp = {0, 0, 4096, 4}; // the spill's rate is not paid
    target.paths[0].cachedReads->byReuseDistance = kCurve;
    Program p(1);
    p.store(0, columns(0, 512));         // 2,048 bytes
    p.load(0, columns(512, 1024), 2048); // 2,048 bytes of other traffic
    const auto later = p.load(0, columns(0, 512));
    const std::vector<Step> steps = p.steps(target);
    EXPECT_EQ(steps[later].read, ReadKind::Cached);
    EXPECT_EQ(steps[later].reuseBytes, 2048);
    auto trace = emulate(p.program(), target, test::tinyGraph());
    ASSERT_TRUE(trace.ok()) << trace.diagnostics().front().toString();
    // 10 + 2048 / 64 = 42 cycles, and at 2 KiB (halfway in log2 between the points) every byte
    // at (1/32 + 1/16) / 2 cycles instead of 1/64: 2048 x (3/64 - 1/64) = 64 more.
    EXPECT_EQ(trace->events[later].endPs - trace->events[later].startPs, (42 + 64) * 1000);
    // Within a private cache of 4 KiB the same load is in it: the figures' own 42 cycles.
    target.privateCacheBytes = 4096;
    auto near = emulate(p.program(), target, test::tinyGraph());
    ASSERT_TRUE(near.ok());
    EXPECT_EQ(near->events[later].endPs - near->events[later].startPs, 42 * 1000);
}

TEST(CachedWrites, AStorePastThePrivateCachePaysTheRateForItsReuseDistance) {
    target::Target target = withCachedWrites();
    target.privateCacheBytes = 4096;
    target.paths[1].cachedWrites->byReuseDistance = kCurve;
    Program p(1);
    p.load(0, columns(0, 512)); // bytes 0..2047
    const auto between = p.load(0, columns(512, 1024), 8192);
    p.at(between, 8192);
    const auto later = p.store(0, columns(0, 512));
    const std::vector<Step> steps = p.steps(target);
    EXPECT_EQ(steps[later].read, ReadKind::CachedWrite);
    EXPECT_EQ(steps[later].reuseBytes, 8192);
    auto trace = emulate(p.program(), target, test::tinyGraph());
    ASSERT_TRUE(trace.ok()) << trace.diagnostics().front().toString();
    // Past the last point its rate: 10 + 2048 / 64 + 2048 x (1/16 - 1/64) = 42 + 96.
    EXPECT_EQ(trace->events[later].endPs - trace->events[later].startPs, (42 + 96) * 1000);
}

// Stores into lines another core holds (chargeStoresIntoOtherCoresLines): a private cache of
// 4 KiB, cached writes at 64 B/cycle within it and kCurve's rates past it.
target::Target withHeldLines() {
    target::Target target = withCachedWrites();
    target.privateCacheBytes = 4096;
    target.paths[1].cachedWrites->byReuseDistance = kCurve;
    return target;
}

std::int64_t cyclesOf(const compiler::Program& program, const target::Target& target,
                      compiler::InstrId id) {
    auto trace = emulate(program, target, test::tinyGraph());
    EXPECT_TRUE(trace.ok()) << trace.diagnostics().front().toString();
    return trace.ok() ? (trace->events[id].endPs - trace->events[id].startPs) / 1000 : -1;
}

TEST(CachedWrites, AStoreIntoLinesTheOtherCoreReadSinceTakesTheRatePastThePrivateCache) {
    // Core 0 loads bytes 0..2047, core 1 reads them after a barrier, core 0 stores into them
    // after the next: 10 + 2048 / 64 = 42 cycles within its cache, plus, at the rate at 4 KiB of
    // traffic (16 B/cycle), 2048 x (1/16 - 1/64) = 96.
    Program p;
    p.load(0, columns(0, 512));
    p.barrier();
    p.load(1, columns(0, 512));
    p.barrier();
    const auto store = p.store(0, columns(0, 512));
    const auto again = p.store(0, columns(0, 512)); // the other core's copy is gone by now
    EXPECT_EQ(p.steps(withHeldLines())[store].read, ReadKind::CachedWrite);
    EXPECT_EQ(p.steps(withHeldLines())[store].reuseBytes, 0);
    EXPECT_EQ(cyclesOf(p.program(), withHeldLines(), store), 42 + 96);
    EXPECT_EQ(cyclesOf(p.program(), withHeldLines(), again), 42);
    // Without rates by distance, or on a target without a private cache: as before.
    target::Target plain = withHeldLines();
    plain.paths[1].cachedWrites->byReuseDistance.clear();
    EXPECT_EQ(cyclesOf(p.program(), plain, store), 42);
    plain = withHeldLines();
    plain.privateCacheBytes = 0;
    EXPECT_EQ(cyclesOf(p.program(), plain, store), 42);
}

TEST(CachedWrites, OnlyTheOtherCoresEarlierSegmentsAndNinetyPercentOfTheSpanCount) {
    {
        Program p; // the other core's read in the same segment: no order between them
        p.load(0, columns(0, 512));
        p.barrier();
        p.load(1, columns(0, 512));
        const auto store = p.store(0, columns(0, 512));
        EXPECT_EQ(cyclesOf(p.program(), withHeldLines(), store), 42);
    }
    {
        Program p; // the other core read half of the lines, twice: still half
        p.load(0, columns(0, 512));
        p.barrier();
        p.load(1, columns(0, 256));
        p.load(1, columns(0, 256));
        p.barrier();
        const auto store = p.store(0, columns(0, 512));
        EXPECT_EQ(cyclesOf(p.program(), withHeldLines(), store), 42);
    }
    {
        Program p; // the other core read them, then moved more than its private cache holds
        p.load(0, columns(0, 512));
        p.barrier();
        p.load(1, columns(0, 512));
        const auto away = p.load(1, columns(512, 1024), 4100);
        p.at(away, 65536);
        p.barrier();
        const auto store = p.store(0, columns(0, 512));
        EXPECT_EQ(cyclesOf(p.program(), withHeldLines(), store), 42);
    }
}

} // namespace
} // namespace strata::emulator
