// Rows a core finds in its own cache (paths[].resident_row_overhead_cycles, emulator::
// chargeResidentRows through checkProgram), hand-computed on the tiny target of
// EmulatorFixtures.h: 1 cycle = 1 ns, load and store move 16 B/cycle after 100 cycles, 1 MiB of
// SRAM per core (the reuse distance). Here a row costs 10 cycles, one already resident 4.

#include "EmulatorFixtures.h"
#include "emulator/Emulator.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

using test::ProgramBuilder;
constexpr std::int64_t kNs = 1000; // ps

target::Target withResidentRows(std::optional<double> resident = 4.0) {
    target::Target target = test::tinyTarget();
    target.paths[0].rowOverheadCycles = 10; // load
    target.paths[0].residentRowOverheadCycles = resident;
    return target;
}

compiler::Access at(const char* memory, std::uint64_t offset, ir::Shape shape = {},
                    std::vector<std::int64_t> strides = {}) {
    compiler::Access a;
    a.memory = memory;
    a.offset = offset;
    a.shape = std::move(shape);
    a.strides = std::move(strides);
    return a;
}

// Transfers one core after another, each waited on at once; their durations in ns.
class Program {
  public:
    Program() : m_builder(2) {}

    // The measured load: x's columns [0, 100) as 4 rows of 25 floats out of rows of 50.
    compiler::InstrId fourRowLoad(int core) {
        return add(core, "load", 400, at("DRAM", 0, {4, 25}, {50, 1}), at("SRAM", 0, {4, 25}),
                   columns(0, 100));
    }
    // A contiguous store of x's columns [begin, end).
    compiler::InstrId store(int core, std::int64_t begin, std::int64_t end) {
        return add(core, "store", 4 * std::uint64_t(end - begin), at("SRAM", 0),
                   at("DRAM", 4 * std::uint64_t(begin)), columns(begin, end));
    }
    // A contiguous load of `bytes` of x's columns [begin, end).
    compiler::InstrId load(int core, std::int64_t begin, std::int64_t end, std::uint64_t bytes) {
        return add(core, "load", bytes, at("DRAM", 4 * std::uint64_t(begin)), at("SRAM", 0),
                   columns(begin, end));
    }

    std::int64_t nsOf(compiler::InstrId id, const target::Target& target) const {
        compiler::Program program = m_builder.program();
        for (const auto& [transfer, source, destination, region] : m_shapes) {
            auto& t = std::get<compiler::Transfer>(program.instructions[transfer].body);
            t.source = source;
            t.destination = destination;
            t.value = ir::ValueId{0}; // tinyGraph's [1, 1024] activation x
            t.region = region;
        }
        auto trace = emulate(program, target, test::tinyGraph());
        EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.diagnostics().front().toString());
        if (!trace.ok())
            return -1;
        for (const trace::Event& e : trace->events)
            if (e.id == id)
                return e.durationPs() / kNs;
        return -1;
    }

  private:
    static tiling::Region columns(std::int64_t begin, std::int64_t end) {
        return {{0, 1}, {begin, end}};
    }

    compiler::InstrId add(int core, const char* path, std::uint64_t bytes, compiler::Access source,
                          compiler::Access destination, tiling::Region region) {
        const compiler::InstrId id = m_builder.transfer(core, path, bytes, 0);
        m_builder.wait(core, 0);
        m_shapes.push_back({id, std::move(source), std::move(destination), std::move(region)});
        return id;
    }

    struct Shape {
        compiler::InstrId id;
        compiler::Access source, destination;
        tiling::Region region;
    };
    ProgramBuilder m_builder;
    std::vector<Shape> m_shapes;
};

TEST(ResidentRows, ARowNobodyOnThisCoreMovedCostsTheRowOverhead) {
    Program p;
    const auto load = p.fourRowLoad(0);
    // 100 latency + 4 rows x 10 + 400 / 16 = 165 cycles.
    EXPECT_EQ(p.nsOf(load, withResidentRows()), 165);
}

TEST(ResidentRows, RowsTheCoreJustStoredCostTheResidentFigure) {
    Program p;
    p.store(0, 0, 200); // covers the load's columns [0, 100)
    const auto load = p.fourRowLoad(0);
    // 100 + 4 x 4 + 25 = 141.
    EXPECT_EQ(p.nsOf(load, withResidentRows()), 141);
}

TEST(ResidentRows, RowsTheCoreJustLoadedAreResidentToo) {
    Program p;
    p.fourRowLoad(0);
    const auto again = p.fourRowLoad(0); // a second output-channel tile re-reading its input
    EXPECT_EQ(p.nsOf(again, withResidentRows()), 141);
}

TEST(ResidentRows, APartlyResidentSpanPaysInProportion) {
    Program p;
    p.store(0, 0, 50); // half of its columns
    const auto load = p.fourRowLoad(0);
    // 100 + 4 x (0.5 x 4 + 0.5 x 10) + 25 = 153.
    EXPECT_EQ(p.nsOf(load, withResidentRows()), 153);
}

TEST(ResidentRows, WhatTheOtherCoreMovedIsNotResidentHere) {
    Program p;
    p.store(1, 0, 200);
    const auto load = p.fourRowLoad(0);
    EXPECT_EQ(p.nsOf(load, withResidentRows()), 165);
}

TEST(ResidentRows, MoreThanTheWorkingMemoryMovedSinceEvictsIt) {
    Program p;
    p.store(0, 0, 200);
    // 1.2 MiB moved since by the same core (other columns): more than its 1 MiB of SRAM.
    p.load(0, 500, 1000, 600ull << 10);
    p.load(0, 500, 1000, 600ull << 10);
    const auto load = p.fourRowLoad(0);
    EXPECT_EQ(p.nsOf(load, withResidentRows()), 165);
}

TEST(ResidentRows, WithoutTheFigureEveryRowCostsTheRowOverhead) {
    Program p;
    p.store(0, 0, 200);
    const auto load = p.fourRowLoad(0);
    EXPECT_EQ(p.nsOf(load, withResidentRows(std::nullopt)), 165);
}

TEST(ResidentRows, StoresKeepTheirOwnRowCost) {
    target::Target target = withResidentRows();
    target.paths[1].rowOverheadCycles = 10; // store
    Program p;
    p.load(0, 0, 200, 800);
    const auto store = p.store(0, 0, 200); // contiguous: one row
    // 100 + 1 x 10 + 800 / 16 = 160: a store is not a read out of main memory.
    EXPECT_EQ(p.nsOf(store, target), 160);
}

} // namespace
} // namespace strata::emulator
