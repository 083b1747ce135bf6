// Stores into main-memory lines the issuing core moved recently (emulator::markCachedReads on a
// store path with cached_reads figures): found by address, not by tensor, within the core's
// reuse distance; and what the figures do to their time. Tiny target of EmulatorFixtures.h:
// 1 cycle = 1 ns, 1 MiB of SRAM per core, store 16 B/cycle after 100 cycles.

#include "EmulatorFixtures.h"
#include "emulator/Emulator.h"
#include "emulator/ProgramCheck.h"
#include "emulator/TransferRows.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

using target::ReadKind;
constexpr std::uint64_t kMiB = 1ull << 20;
constexpr std::int64_t kNs = 1000; // ps

target::Target withResidentStores() {
    target::Target target = test::tinyTarget();
    target.paths[1].cachedReads = target::ReadFigures{64, 10}; // "store"
    return target;
}

// Hand-placed contiguous transfers of main-memory bytes [offset, offset + bytes), each waited on.
class Moves {
  public:
    explicit Moves(int cores = 2) : m_builder(cores) {}

    // `rows` > 1: that many rows of bytes / rows, two rows apart in main memory (a column tile).
    compiler::InstrId load(int core, std::uint64_t offset, std::uint64_t bytes,
                           std::int64_t rows = 1) {
        return move(core, "load", "DRAM", "SRAM", offset, bytes, rows);
    }
    compiler::InstrId store(int core, std::uint64_t offset, std::uint64_t bytes,
                            std::int64_t rows = 1) {
        return move(core, "store", "SRAM", "DRAM", offset, bytes, rows);
    }

    CheckedProgram check(const target::Target& target) const {
        std::vector<Diagnostic> diagnostics;
        CheckedProgram checked = checkProgram(program(), target, test::tinyGraph(), diagnostics);
        EXPECT_TRUE(diagnostics.empty()) << diagnostics.front().toString();
        return checked;
    }

    compiler::Program program() const {
        compiler::Program p = m_builder.program();
        for (const Placed& m : m_moves) {
            auto& t = std::get<compiler::Transfer>(p.instructions[m.id].body);
            t.source.memory = m.from;
            t.destination.memory = m.to;
            compiler::Access& main = std::string(m.from) == "DRAM" ? t.source : t.destination;
            compiler::Access& working = &main == &t.source ? t.destination : t.source;
            main.offset = m.offset;
            const std::int64_t run = static_cast<std::int64_t>(m.bytes) / m.rows; // uint8 elements
            main.shape = working.shape = m.rows > 1 ? ir::Shape{m.rows, run} : ir::Shape{run};
            if (m.rows > 1)
                main.strides = {2 * run, 1};
        }
        return p;
    }

  private:
    struct Placed {
        compiler::InstrId id;
        const char* from;
        const char* to;
        std::uint64_t offset, bytes;
        std::int64_t rows;
    };
    compiler::InstrId move(int core, const char* path, const char* from, const char* to,
                           std::uint64_t offset, std::uint64_t bytes, std::int64_t rows) {
        const compiler::InstrId id = m_builder.transfer(core, path, bytes, 0);
        m_builder.wait(core, 0);
        m_moves.push_back({id, from, to, offset, bytes, rows});
        return id;
    }
    test::ProgramBuilder m_builder;
    std::vector<Placed> m_moves;
};

TEST(ResidentStores, AStoreIntoBytesTheCoreJustLoadedIsCached) {
    Moves m;
    m.load(0, 4096, 8192);
    const auto inside = m.store(0, 4096, 8192);
    const auto elsewhere = m.store(0, 65536, 8192);
    const CheckedProgram checked = m.check(withResidentStores());
    EXPECT_EQ(checked.steps[inside].read, ReadKind::Cached);
    EXPECT_EQ(checked.steps[elsewhere].read, ReadKind::Other);
}

TEST(ResidentStores, ByAddressWhateverTensorTheBytesHeld) {
    // Main memory is reused: a store over bytes the core stored (another tensor) a moment ago.
    Moves m;
    m.store(0, 0, 4096);
    const auto over = m.store(0, 0, 4096);
    EXPECT_EQ(m.check(withResidentStores()).steps[over].read, ReadKind::Cached);
}

TEST(ResidentStores, NinetyPercentOfTheBytesMustBeTheCoresOwn) {
    Moves m;
    m.load(0, 0, 920);
    m.load(1, 920, 104);                      // the other core's: in its cache, not this one's
    const auto most = m.store(0, 0, 1000);    // 920 of 1000 its own: 92%
    const auto half = m.store(0, 1000, 1000); // none (1000.. was never moved)
    const CheckedProgram checked = m.check(withResidentStores());
    EXPECT_EQ(checked.steps[most].read, ReadKind::Cached);
    EXPECT_EQ(checked.steps[half].read, ReadKind::Other);
}

TEST(ResidentStores, AColumnTileIsNotJudgedByItsSpan) {
    // 16 rows of 64 bytes two rows apart: its span (the first byte to the last) was all loaded,
    // but a column tile's span is mostly its neighbours' bytes, so strided stores are never cached.
    Moves m;
    m.load(0, 0, 4096);
    const auto tile = m.store(0, 0, 1024, 16);
    const compiler::Program program = m.program();
    const auto& transfer = std::get<compiler::Transfer>(program.instructions[tile].body);
    EXPECT_EQ(transferSpan(transfer, false).end, 30u * 64 + 64);
    EXPECT_EQ(m.check(withResidentStores()).steps[tile].read, ReadKind::Other);
}

TEST(ResidentStores, AStridedLoadCoversItsSpanByItsDensity) {
    // 16 rows of 64 bytes two apart: 1024 of its 1984-byte span; a store over the span is not
    // cached (52%); with the rows between loaded too, it is.
    Moves m;
    m.load(0, 0, 1024, 16);
    const auto over = m.store(0, 0, 1984);
    EXPECT_EQ(m.check(withResidentStores()).steps[over].read, ReadKind::Other);
    Moves twice;
    twice.load(0, 0, 1024, 16);
    twice.load(0, 64, 1024, 16);
    const auto all = twice.store(0, 0, 1984);
    EXPECT_EQ(twice.check(withResidentStores()).steps[all].read, ReadKind::Cached);
}

TEST(ResidentStores, WhatTheOtherCoreMovedIsNot) {
    Moves m;
    m.load(1, 0, 4096);
    const auto store = m.store(0, 0, 4096);
    EXPECT_EQ(m.check(withResidentStores()).steps[store].read, ReadKind::Other);
}

TEST(ResidentStores, EvictedOnceTheCoreHasMovedMoreThanItsWorkingMemory) {
    Moves kept;
    kept.load(0, 0, 4096);
    kept.load(0, 8 * kMiB, kMiB); // exactly the working memory moved since
    const auto still = kept.store(0, 0, 4096);
    EXPECT_EQ(kept.check(withResidentStores()).steps[still].read, ReadKind::Cached);
    Moves evicted;
    evicted.load(0, 0, 4096);
    evicted.load(0, 8 * kMiB, kMiB + 1);
    const auto gone = evicted.store(0, 0, 4096);
    EXPECT_EQ(evicted.check(withResidentStores()).steps[gone].read, ReadKind::Other);
}

TEST(ResidentStores, WithoutTheFiguresAStoreKeepsThePathsOwn) {
    Moves m;
    m.load(0, 0, 4096);
    const auto store = m.store(0, 0, 4096);
    EXPECT_EQ(m.check(test::tinyTarget()).steps[store].read, ReadKind::Other);
}

TEST(ResidentStores, ACachedStoreTakesTheCachedFigures) {
    // 1600 bytes into lines the core holds: 10 cycles + 1600 / 64 = 35 ns (not 100 + 1600 / 16).
    Moves m;
    m.load(0, 0, 1600);
    const auto store = m.store(0, 0, 1600);
    const auto t = emulate(m.program(), withResidentStores(), test::tinyGraph());
    ASSERT_TRUE(t.ok()) << t.diagnostics().front().toString();
    EXPECT_EQ(t->events[store].durationPs(), 35 * kNs);
}

TEST(TransferLines, ContiguousRunsCountTheLinesTheyTouch) {
    compiler::Transfer t;
    t.bytes = 256;
    t.source.shape = t.destination.shape = {256};
    EXPECT_EQ(transferLines(t, true), 4u); // aligned
    t.source.offset = 32;
    EXPECT_EQ(transferLines(t, true), 5u); // straddles one more
    EXPECT_EQ(transferLines(t, false), 4u);
}

TEST(TransferLines, ShortRowsTouchWholeLinesAndNeighboursShareThem) {
    // 8 rows of 56 bytes, 112 apart (a column tile of 14 floats out of rows of 28): rows at
    // 0, 112, 224, 336, 448...: within 64-byte lines 0 | 1-2 | 3-4 | 5-6 | 7 | ...: every 448
    // bytes (7 lines), one row fits a line and three straddle two.
    compiler::Transfer t;
    t.bytes = 8 * 56;
    t.source.shape = t.destination.shape = {8, 56};
    t.source.strides = {112, 1};
    EXPECT_EQ(transferRows(t), 8u);
    EXPECT_EQ(transferLines(t, true), 14u);
    // 32 rows of 16 bytes, 32 apart: two rows per line.
    compiler::Transfer narrow;
    narrow.bytes = 32 * 16;
    narrow.source.shape = narrow.destination.shape = {32, 16};
    narrow.source.strides = {32, 1};
    EXPECT_EQ(transferLines(narrow, true), 16u);
}

TEST(TransferSpan, FromTheFirstByteToTheLastGapsIncluded) {
    compiler::Transfer t;
    t.bytes = 8 * 56;
    t.source.shape = t.destination.shape = {8, 56};
    t.source.strides = {112, 1};
    t.source.offset = 1000;
    const ByteSpan span = transferSpan(t, true);
    EXPECT_EQ(span.begin, 1000u);
    EXPECT_EQ(span.end, 1000u + 7 * 112 + 56);
    const ByteSpan contiguous = transferSpan(t, false);
    EXPECT_EQ(contiguous.end - contiguous.begin, 8u * 56);
}

} // namespace
} // namespace strata::emulator
