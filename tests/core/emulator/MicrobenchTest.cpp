// The seed-004 experiment: program shape and the figure's shape on the presets.

#include "emulator/Microbench.h"
#include "target/TargetLoader.h"

#include <gtest/gtest.h>

namespace strata::emulator {
namespace {

target::Target preset(const char* name) {
    auto t = target::resolveTarget(name);
    EXPECT_TRUE(t.ok());
    return *t;
}

TEST(Microbench, ProgramAlternatesKindsWithAtMostInFlightOutstanding) {
    auto target = preset("mncore2");
    auto program = microbenchProgram(target, {"mvp", "mvb"}, 1024, 2, 3);
    ASSERT_TRUE(program.ok());
    std::vector<std::string> text;
    for (compiler::InstrId id : program->streams[0]) {
        const auto& in = program->instructions[id];
        if (const auto* t = std::get_if<compiler::Transfer>(&in.body))
            text.push_back(t->path + " t" + std::to_string(t->tag));
        else if (const auto* w = std::get_if<compiler::Wait>(&in.body))
            text.push_back("wait t" + std::to_string(w->tag));
    }
    // As in the seed's listing: mvp i01, mvb i02, wait i01, mvp i01, wait i02, mvb i02, ...
    EXPECT_EQ(text, (std::vector<std::string>{"mvp t0", "mvb t1", "wait t0", "mvp t0", "wait t1", "mvb t1", "wait t0",
                                              "mvp t0", "wait t1", "mvb t1", "wait t0", "wait t1"}));
}

TEST(Microbench, ThroughputRisesWithSizeAndConvergesToThePathLimit) {
    auto target = preset("mncore2");
    MicrobenchSpec spec;
    spec.kinds = {"mvp", "mvb"};
    for (std::uint64_t words = 1; words <= 16384; words *= 4) spec.sizes.push_back(words);
    auto result = runMicrobench(target, spec);
    ASSERT_TRUE(result.ok()) << result.diagnostics().front().toString();
    ASSERT_EQ(result->rows.size(), spec.sizes.size());
    for (std::size_t k = 0; k < 2; ++k) {
        for (std::size_t i = 1; i < result->rows.size(); ++i)
            EXPECT_GT(result->rows[i].aloneGBps[k], result->rows[i - 1].aloneGBps[k]) << spec.kinds[k] << " row " << i;
        EXPECT_LE(result->rows.back().aloneGBps[k], result->limitGBps[k] * (1 + 1e-9));
    }
    // Two mvp in flight start together, share the port and finish together, so each pair
    // exposes one 400-cycle latency: 2 x 128 KiB / (400 + 2 x 128 KiB / 128) = 107 GB/s, within
    // 20% of the group's DRAM port and closing in as sizes grow.
    EXPECT_GT(result->rows.back().aloneGBps[0], 0.8 * result->limitGBps[0]);
    EXPECT_DOUBLE_EQ(result->limitGBps[0], 128);
    EXPECT_DOUBLE_EQ(result->limitGBps[1], 512);
    for (const auto& row : result->rows) {
        const double harmonic = 2 / (1 / row.aloneGBps[0] + 1 / row.aloneGBps[1]);
        EXPECT_DOUBLE_EQ(row.idealGBps, harmonic);
    }
}

TEST(Microbench, UnknownKindNamesTheTargetsPaths) {
    auto target = preset("mncore2");
    auto program = microbenchProgram(target, {"dma"}, 64, 2, 4);
    ASSERT_FALSE(program.ok());
    EXPECT_NE(program.diagnostics().front().message.find("no path 'dma'"), std::string::npos);
    EXPECT_NE(program.diagnostics().front().message.find("mvb"), std::string::npos);
}

TEST(Microbench, SizeThatDoesNotFitTheDestination) {
    auto target = preset("mncore2");
    auto program = microbenchProgram(target, {"mvp"}, 1ull << 30, 2, 4);
    ASSERT_FALSE(program.ok());
    EXPECT_NE(program.diagnostics().front().message.find("does not fit 'L2BM'"), std::string::npos);
}

} // namespace
} // namespace strata::emulator
