// Hand-computed costs of a transfer's rows (paths[].row_overhead_cycles, counted as the host
// runtime copies them) and of depthwise convolutions (throughput_per_cycle.depthwise_conv), on the
// tiny target of EmulatorFixtures.h: 1 cycle = 1 ns, load moves 16 B/cycle after 100 cycles.

#include "EmulatorFixtures.h"
#include "emulator/ComputeCost.h"
#include "emulator/Emulator.h"
#include "emulator/TransferRows.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

using test::ProgramBuilder;
constexpr std::int64_t kNs = 1000; // ps

compiler::Access box(ir::Shape shape, std::vector<std::int64_t> strides = {}) {
    compiler::Access a;
    a.memory = "DRAM";
    a.shape = std::move(shape);
    a.strides = std::move(strides);
    return a;
}

compiler::Transfer transferOf(compiler::Access source, compiler::Access destination) {
    compiler::Transfer t;
    t.path = "load";
    t.source = std::move(source);
    t.destination = std::move(destination);
    return t;
}

TEST(TransferRows, ContiguousBoxIsOneRow) {
    EXPECT_EQ(transferRows(transferOf(box({4, 25}), box({4, 25}))), 1u);
    EXPECT_EQ(transferRows(transferOf(box({1, 8, 1, 9}), box({1, 8, 1, 9}))), 1u);
}

TEST(TransferRows, TileOfAWiderTensorIsOneRowPerOuterIndex) {
    // 4 rows of 25 elements out of rows of 50: the source is strided across rows.
    EXPECT_EQ(transferRows(transferOf(box({4, 25}, {50, 1}), box({4, 25}))), 4u);
    // 3 x 4 x 5 box of a 3 x 8 x 5 tensor: dims 1 and 2 merge (4 x 5 contiguous on both sides),
    // dim 0 does not: 3 rows of 20.
    EXPECT_EQ(transferRows(transferOf(box({3, 4, 5}, {40, 5, 1}), box({3, 4, 5}))), 3u);
    // A halo tile: 2 x 6 x 6 of a 2 x 10 x 10 tensor: 12 rows of 6.
    EXPECT_EQ(transferRows(transferOf(box({2, 6, 6}, {100, 10, 1}), box({2, 6, 6}))), 12u);
    // Size-1 dims are dropped before merging.
    EXPECT_EQ(transferRows(transferOf(box({1, 4, 1, 25}, {999, 50, 7, 1}), box({1, 4, 1, 25}))), 4u);
}

TEST(TransferRows, StridedInnermostDimIsOneRowPerElement) {
    // A transpose-like gather: the innermost dim steps by 8 on the source.
    EXPECT_EQ(transferRows(transferOf(box({3, 8}, {1, 8}), box({3, 8}))), 24u);
}

TEST(TransferRows, NoBoxIsOneRowAndAnEmptyBoxNone) {
    EXPECT_EQ(transferRows(compiler::Transfer{}), 1u);
    EXPECT_EQ(transferRows(transferOf(box({4, 0}), box({4, 0}))), 0u);
    // Ranks that disagree (the runtime refuses the transfer): counted as one row.
    EXPECT_EQ(transferRows(transferOf(box({4, 25}, {50}), box({4, 25}))), 1u);
}

trace::Trace run(const compiler::Program& program, const target::Target& target, const ir::Graph& graph = test::tinyGraph()) {
    auto trace = emulate(program, target, graph);
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.diagnostics().front().toString());
    return trace.ok() ? *trace : trace::Trace{};
}

// The builder's transfer with a 4-row box: 4 rows of 25 floats from rows of 50 (400 bytes).
compiler::Program fourRowLoad(int copies) {
    ProgramBuilder b(1);
    for (int k = 0; k < copies; ++k) b.transfer(0, "load", 400, k);
    for (int k = 0; k < copies; ++k) b.wait(0, k);
    compiler::Program program = b.program();
    for (int k = 0; k < copies; ++k) {
        auto& t = std::get<compiler::Transfer>(program.instructions[static_cast<std::size_t>(k)].body);
        t.source = box({4, 25}, {50, 1});
        t.destination = box({4, 25});
        t.destination.memory = "SRAM";
    }
    return program;
}

TEST(RowOverhead, EachRowAddsItsCyclesToTheTransfer) {
    target::Target target = test::tinyTarget();
    target.paths[0].rowOverheadCycles = 10;
    const trace::Trace t = run(fourRowLoad(1), target);
    // 100 latency + 4 rows x 10 + 400 / 16 = 165 cycles.
    EXPECT_EQ(t.events[0].startPs, 0);
    EXPECT_EQ(t.events[0].endPs, 165 * kNs);
}

TEST(RowOverhead, ZeroLeavesTheTransferAsBefore) {
    const trace::Trace t = run(fourRowLoad(1), test::tinyTarget());
    EXPECT_EQ(t.events[0].endPs, 125 * kNs); // 100 + 400 / 16
}

TEST(RowOverhead, RowsAreNotSharedBandwidth) {
    target::Target target = test::tinyTarget();
    target.paths[0].rowOverheadCycles = 10;
    const trace::Trace t = run(fourRowLoad(2), target);
    // Both issue at 0; each has 140 cycles before its bytes move (overlapping, like latency),
    // then both share the port's 16 B/cycle: 800 bytes in 50 cycles. Both end at 190.
    EXPECT_EQ(t.events[0].endPs, 190 * kNs);
    EXPECT_EQ(t.events[1].endPs, 190 * kNs);
}

// Op 0: a depthwise 3x3 conv over 8 channels (group 8); op 1: a dense conv over the same input.
const ir::Graph& convGraph() {
    static const ir::Graph graph = [] {
        ir::Graph g;
        g.name = "convs";
        ir::Value x;
        x.name = "x";
        x.dtype = ir::DType::Float32;
        x.shape = {1, 8, 16, 16};
        g.values.push_back(x);
        ir::Op depthwise;
        depthwise.name = "dw";
        depthwise.type = "Conv";
        depthwise.opClass = ir::OpClass::Conv;
        depthwise.inputs = {ir::ValueId(0)};
        ir::Attribute group;
        group.name = "group";
        group.value = std::int64_t{8};
        depthwise.attributes.push_back(group);
        ir::Op dense = depthwise;
        dense.name = "dense";
        dense.attributes.clear();
        g.ops = {depthwise, dense};
        g.finalize();
        return g;
    }();
    return graph;
}

TEST(DepthwiseConv, RecognisedByGroupEqualToInputChannels) {
    EXPECT_TRUE(isDepthwiseConv(convGraph().ops[0], convGraph()));
    EXPECT_FALSE(isDepthwiseConv(convGraph().ops[1], convGraph()));
    ir::Op grouped = convGraph().ops[0];
    grouped.attributes[0].value = std::int64_t{2}; // grouped, not depthwise
    EXPECT_FALSE(isDepthwiseConv(grouped, convGraph()));
    EXPECT_FALSE(isDepthwiseConv(test::tinyGraph().ops[0], test::tinyGraph())); // no input
}

TEST(DepthwiseConv, RunsAtItsOwnThroughputWhenTheTargetHasOne) {
    ProgramBuilder b(1);
    b.conv(0, 100); // op 0: depthwise
    compiler::Program program = b.program();
    compiler::Instruction dense = program.instructions[0];
    dense.id = 1;
    dense.from.op = ir::OpId(1);
    program.instructions.push_back(dense);
    program.streams[0].push_back(1);

    target::Target target = test::tinyTarget(); // conv 1 MAC/cycle
    trace::Trace t = run(program, target, convGraph());
    EXPECT_EQ(t.events[0].endPs, 100 * kNs); // no depthwise figure: conv's
    EXPECT_EQ(t.events[1].endPs, 200 * kNs);

    target.throughput.depthwiseConvPerCycle = 0.25;
    t = run(program, target, convGraph());
    EXPECT_EQ(t.events[0].endPs, 400 * kNs); // 100 MACs at 0.25 per cycle
    EXPECT_EQ(t.events[1].startPs, 400 * kNs);
    EXPECT_EQ(t.events[1].endPs, 500 * kNs); // the dense one still at 1
}

} // namespace
} // namespace strata::emulator
