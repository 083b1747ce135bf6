// A convolution or matrix product computes its output channels a vector at a time
// (target::Target::channelGranule): a compute of fewer channels, or of a count that is not a
// multiple, is charged as if rounded up. Numbers derived from the tiny target (1 MAC per cycle,
// no overheads, 1 cycle = 1 ns).

#include "EmulatorFixtures.h"
#include "emulator/ComputeCost.h"
#include "emulator/Emulator.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

constexpr std::int64_t kNs = 1000; // ps
constexpr double kMacsPerChannel = 100;

// A Conv (op 0 of the tiny graph) making `channels` output channels of x, kMacsPerChannel each.
compiler::Compute convOf(std::int64_t channels) {
    compiler::Compute c;
    c.opType = "Conv";
    c.flops = 2 * kMacsPerChannel * double(channels);
    c.outputs.push_back({ir::ValueId(0), {{0, 1}, {0, channels}}, 0});
    return c;
}

// Emulated durations of one compute per channel count, in that order, on one core.
std::vector<std::int64_t> durationsNs(const std::vector<std::int64_t>& channels, int granule) {
    compiler::Program program = test::ProgramBuilder(1).program();
    for (std::int64_t n : channels) {
        compiler::Instruction in;
        in.id = static_cast<compiler::InstrId>(program.instructions.size());
        in.from = {0, ir::OpId(0), 0};
        in.body = convOf(n);
        program.streams[0].push_back(in.id);
        program.instructions.push_back(std::move(in));
    }
    target::Target t = test::tinyTarget();
    t.channelGranule = granule;
    auto trace = emulate(program, t, test::tinyGraph());
    EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.diagnostics().front().toString());
    std::vector<std::int64_t> out;
    if (trace.ok())
        for (const auto& e : trace->events)
            out.push_back(e.durationPs() / kNs);
    return out;
}

TEST(PaddedLanes, ATwoChannelTileCostsWhatASixteenChannelOneDoes) {
    const auto padded = durationsNs({2, 16, 24, 32}, 16);
    // 2 -> 16 lanes, 24 -> 32: lanes x 100 MACs at 1 MAC per cycle.
    EXPECT_EQ(padded, (std::vector<std::int64_t>{1600, 1600, 3200, 3200}));
    // Without a granule every channel is charged on its own.
    EXPECT_EQ(durationsNs({2, 16, 24, 32}, 1), (std::vector<std::int64_t>{200, 1600, 2400, 3200}));
}

TEST(PaddedLanes, FactorFollowsTheChannelDimensionOfEachClass) {
    ir::Op conv;
    conv.opClass = ir::OpClass::Conv;
    ir::Op matmul;
    matmul.opClass = ir::OpClass::MatMul;
    ir::Op relu;
    relu.opClass = ir::OpClass::Elementwise;
    compiler::Compute c;
    c.outputs.push_back({ir::ValueId(0), {{0, 1}, {0, 4}, {0, 7}, {0, 40}}, 0});
    EXPECT_DOUBLE_EQ(paddedLaneFactor(c, conv, 16), 16.0 / 4);    // dimension 1: 4 channels
    EXPECT_DOUBLE_EQ(paddedLaneFactor(c, matmul, 16), 48.0 / 40); // the last: 40 columns
    EXPECT_DOUBLE_EQ(paddedLaneFactor(c, matmul, 8), 1.0);
    EXPECT_DOUBLE_EQ(paddedLaneFactor(c, relu, 16), 1.0);
    EXPECT_DOUBLE_EQ(paddedLaneFactor(c, conv, 1), 1.0);
    EXPECT_DOUBLE_EQ(paddedLaneFactor(compiler::Compute{}, conv, 16), 1.0); // no output region
}

} // namespace
} // namespace strata::emulator
