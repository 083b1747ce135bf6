// The whole pipeline: every sample on every preset with every strategy compiles and verifies;
// pass records, dumps, emitters; bad schedules are refused.

#include "CompilerFixtures.h"
#include "compiler/Pipeline.h"
#include "compiler/emit/AsmEmitter.h"
#include "compiler/emit/JsonEmitter.h"
#include "schedule/Strategies.h"
#include "support/TestModels.h"

#include <gtest/gtest.h>

namespace strata::compiler {
namespace {

using schedule::Strategy;

TEST(Pipeline, EverySampleTargetAndStrategyCompilesAndVerifies) {
    for (const char* sample : {"resnet_tiny.onnx", "mobilenet_tiny.onnx", "transformer_block.onnx"}) {
        auto g = test::sampleGraph(sample);
        for (const char* targetName : {"mncore2", "mlu100", "host"}) {
            auto t = test::presetTarget(targetName);
            for (Strategy s : {Strategy::PerOp, Strategy::Rules, Strategy::FuseMax}) {
                auto schedule = schedule::makeSchedule(*g, t, s);
                auto r = compile(*g, t, schedule);
                ASSERT_TRUE(r.ok()) << sample << " " << targetName << " " << schedule::strategyName(s) << ": "
                                    << test::joined(r.diagnostics());
                const Program& p = r->program;
                EXPECT_EQ(p.blocks.size(), schedule.blocks.size());
                // Every op of the model is computed at least once.
                std::vector<bool> computed(g->ops.size(), false);
                for (const Instruction& in : p.instructions)
                    if (const auto* c = std::get_if<Compute>(&in.body)) {
                        computed[in.from.op.index] = true;
                        for (const EpilogueStep& step : c->epilogue) computed[step.op.index] = true; // fused
                    }
                EXPECT_TRUE(std::all_of(computed.begin(), computed.end(), [](bool b) { return b; }));
                // Instruction ids are their positions; streams list each instruction once.
                std::size_t listed = 0;
                for (const auto& stream : p.streams) listed += stream.size();
                EXPECT_EQ(listed, p.instructions.size());
                for (std::size_t i = 0; i < p.instructions.size(); ++i) EXPECT_EQ(p.instructions[i].id, i);
            }
        }
    }
}

TEST(Pipeline, StoresWriteEveryOutputElementOnce) {
    auto g = test::sampleGraph("resnet_tiny.onnx");
    auto t = test::presetTarget("mlu100");
    auto r = compile(*g, t, schedule::makeSchedule(*g, t, Strategy::FuseMax));
    ASSERT_TRUE(r.ok());
    std::map<std::uint32_t, std::int64_t> stored;
    for (const Instruction& in : r->program.instructions)
        if (const auto* tr = std::get_if<Transfer>(&in.body); tr && tr->destination.memory == t.mainMemory)
            stored[tr->value.index] += tiling::regionElements(tr->region);
    for (ir::ValueId out : g->outputs) EXPECT_EQ(stored[out.index], g->value(out).elements());
    for (const auto& [value, elements] : stored) EXPECT_EQ(elements, g->values[value].elements()) << g->values[value].name;
}

TEST(Pipeline, RecordsEveryPassAndDumpsOnRequest) {
    auto g = test::sampleGraph("mobilenet_tiny.onnx");
    auto t = test::presetTarget("host");
    auto r = compile(*g, t, schedule::makeSchedule(*g, t, Strategy::Rules), {.dumpAfter = {"plan-dram"}});
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r->passes.size(), passes().size());
    for (std::size_t i = 0; i < passes().size(); ++i) {
        EXPECT_EQ(r->passes[i].name, passes()[i].name);
        EXPECT_GE(r->passes[i].milliseconds, 0.0);
        EXPECT_EQ(r->passes[i].dump.empty(), passes()[i].name != "plan-dram");
    }
    EXPECT_NE(r->passes[1].dump.find("DRAM plan"), std::string::npos);
}

TEST(Pipeline, RefusesAnInvalidSchedule) {
    auto g = test::convChainWithWeights();
    auto t = test::presetTarget("mncore2");
    auto s = schedule::makeSchedule(*g, t, Strategy::PerOp);
    s.blocks[1].mp = 99;
    auto r = compile(*g, t, s);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(test::mentions(r.diagnostics(), "mp 99 is outside"));
}

TEST(Pipeline, AsksBeforeEachStepAndStopsWhenTold) {
    auto g = test::convChainWithWeights();
    auto t = test::presetTarget("mncore2");
    std::vector<std::string> asked;
    CompileOptions options;
    options.proceed = [&](int step, const std::string& name) {
        asked.push_back(std::to_string(step) + ":" + name);
        return step < 2;
    };
    auto r = compile(*g, t, schedule::makeSchedule(*g, t, Strategy::PerOp), options);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(test::mentions(r.diagnostics(), "compile cancelled"));
    EXPECT_EQ(asked, (std::vector<std::string>{"0:check", "1:tile-blocks", "2:plan-dram"}));
}

TEST(Emitters, AssemblyNamesNodesBlocksAndTiles) {
    auto g = test::sampleGraph("resnet_tiny.onnx");
    auto t = test::presetTarget("mncore2");
    auto r = compile(*g, t, schedule::makeSchedule(*g, t, Strategy::Rules));
    ASSERT_TRUE(r.ok());
    std::string text = emitAssembly(r->program, *g);
    EXPECT_NE(text.find(".core 7"), std::string::npos);
    EXPECT_NE(text.find("mvp "), std::string::npos);
    EXPECT_NE(text.find("mvp_store"), std::string::npos);
    EXPECT_NE(text.find("Conv "), std::string::npos);
    EXPECT_NE(text.find("stem/conv"), std::string::npos);
    EXPECT_NE(text.find("barrier"), std::string::npos);
    // One line per instruction, each starting with its id.
    std::size_t lines = 0;
    for (std::size_t pos = text.find("\ni"); pos != std::string::npos; pos = text.find("\ni", pos + 1)) ++lines;
    EXPECT_EQ(lines, r->program.instructions.size());
}

TEST(Emitters, JsonListsInstructionsAndStreams) {
    auto g = test::sampleGraph("transformer_block.onnx");
    auto t = test::presetTarget("host");
    auto r = compile(*g, t, schedule::makeSchedule(*g, t, Strategy::FuseMax));
    ASSERT_TRUE(r.ok());
    auto j = programToJson(r->program, *g);
    EXPECT_EQ(j["strata_program"], 1);
    EXPECT_EQ(j["instructions"].size(), r->program.instructions.size());
    EXPECT_EQ(j["streams"].size(), static_cast<std::size_t>(t.cores()));
    const auto& first = j["instructions"][0];
    EXPECT_EQ(first["kind"], "transfer");
    EXPECT_TRUE(first.contains("src") && first.contains("dst") && first.contains("tag") && first.contains("path"));
}

} // namespace
} // namespace strata::compiler
