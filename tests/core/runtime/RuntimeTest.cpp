// The host runtime: hand-built programs move the right bytes (strided boxes, broadcasts, across
// a barrier), a measured trace describes every instruction like the emulator's, malformed
// programs and inputs get diagnostics before anything runs, and compiled samples reproduce the
// unfused reference evaluation.

#include "runtime/Runtime.h"

#include "compiler/Pipeline.h"
#include "model/OnnxImporter.h"
#include "reference/Compare.h"
#include "reference/Evaluator.h"
#include "runtime/CacheChurn.h"
#include "runtime/Memory.h"
#include "runtime/Prepared.h"
#include "schedule/Strategies.h"
#include "support/TestModels.h"
#include "target/TargetLoader.h"

#include <cstring>
#include <gtest/gtest.h>
#include <limits>
#include <numeric>

namespace strata::test {
namespace {

using compiler::InstrId;

// Two cores, 4 KiB of scratch each, a load and a store path and a broadcast load.
target::Target hostLike() {
    target::Target t;
    t.name = "hostlike";
    t.source = "test";
    t.clockHz = 1e9;
    t.coresPerGroup = 2;
    for (std::size_t c = 0; c < t.throughput.perCycle.size(); ++c) t.throughput.perCycle[c] = 1;
    t.workingMemory = "scratch";
    t.mainMemory = "dram";
    t.memories = {{"dram", target::MemoryKind::Dram, target::Scope::Chip, 1ull << 20, ""},
                  {"scratch", target::MemoryKind::Sram, target::Scope::Core, 4096, ""}};
    t.resources = {{"bus", target::Scope::Chip, 16, ""}};
    t.paths = {{"load", "dram", "scratch", 16, 10, 4, {"bus"}, false, ""},
               {"store", "scratch", "dram", 16, 10, 4, {"bus"}, false, ""},
               {"bcast", "dram", "scratch", 16, 10, 4, {"bus"}, true, ""}};
    return t;
}

// x: float [4, 6] (input), y: float [4, 3] (output); no ops.
const ir::Graph& boxGraph() {
    static const ir::Graph graph = [] {
        ir::Graph g;
        g.name = "boxes";
        for (auto [name, shape] : {std::pair<const char*, ir::Shape>{"x", {4, 6}}, {"y", {4, 3}}}) {
            ir::Value v;
            v.name = name;
            v.dtype = ir::DType::Float32;
            v.shape = shape;
            g.values.push_back(v);
        }
        g.inputs = {ir::ValueId(0)};
        g.outputs = {ir::ValueId(1)};
        g.finalize();
        return g;
    }();
    return graph;
}

constexpr std::uint64_t kX = 0, kY = 96; // byte offsets in main memory

compiler::Access access(const char* memory, int instance, std::uint64_t offset, ir::Shape shape,
                        std::vector<std::int64_t> strides) {
    return {memory, instance, offset, std::move(shape), std::move(strides)};
}

class Builder {
  public:
    Builder() {
        p.modelName = "boxes";
        p.targetName = "hostlike";
        p.mainMemory = "dram";
        p.workingMemory = "scratch";
        p.cores = 2;
        p.streams.assign(2, {});
        p.dram = {{ir::ValueId(0), kX, 96, compiler::DramBuffer::Role::Input, -1, 1},
                  {ir::ValueId(1), kY, 48, compiler::DramBuffer::Role::Output, 0, 2}};
        p.dramBytes = kY + 48;
    }
    InstrId add(int core, decltype(compiler::Instruction::body) body) {
        compiler::Instruction in;
        in.id = static_cast<InstrId>(p.instructions.size());
        in.core = core;
        in.from.block = 0;
        in.body = std::move(body);
        p.streams[static_cast<std::size_t>(core)].push_back(in.id);
        p.instructions.push_back(std::move(in));
        return p.instructions.back().id;
    }
    InstrId move(int core, const char* path, compiler::Access from, compiler::Access to, int tag) {
        compiler::Transfer t;
        t.path = path;
        t.bytes = 4;
        for (std::int64_t n : from.shape) t.bytes *= static_cast<std::uint64_t>(n);
        t.source = std::move(from);
        t.destination = std::move(to);
        t.tag = tag;
        t.value = ir::ValueId(0);
        return add(core, std::move(t));
    }
    InstrId wait(int core, int tag) { return add(core, compiler::Wait{tag}); }
    void barrier() {
        for (int core = 0; core < p.cores; ++core) add(core, compiler::Barrier{m_barriers});
        ++m_barriers;
    }
    compiler::Program p;

  private:
    int m_barriers = 0;
};

reference::Tensor iota(ir::Shape shape) {
    std::vector<float> v(static_cast<std::size_t>(shape[0] * shape[1]));
    std::iota(v.begin(), v.end(), 1.0f);
    return reference::fromFloats(shape, v);
}

std::vector<float> floatsOf(const reference::Tensor& t) { return {t.floats(), t.floats() + t.elements()}; }

TEST(Runtime, StridedBoxGoesThroughScratchAndBack) {
    Builder b;
    // x[1:3, 2:5] -> scratch (contiguous 2x3) -> y rows 0..1.
    b.move(0, "load", access("dram", 0, kX + (1 * 6 + 2) * 4, {2, 3}, {6, 1}), access("scratch", 0, 64, {2, 3}, {3, 1}), 1);
    b.wait(0, 1);
    b.move(0, "store", access("scratch", 0, 64, {2, 3}, {3, 1}), access("dram", 0, kY, {2, 3}, {3, 1}), 2);
    b.wait(0, 2);
    b.barrier();
    auto result = runtime::run(b.p, hostLike(), boxGraph(), {iota({4, 6})});
    ASSERT_TRUE(result) << joined(result.diagnostics());
    ASSERT_EQ(result->outputs.size(), 1u);
    const std::vector<float> y = floatsOf(result->outputs[0]);
    EXPECT_EQ(std::vector<float>(y.begin(), y.begin() + 6), (std::vector<float>{9, 10, 11, 15, 16, 17}));

    const trace::Trace& t = result->trace;
    EXPECT_EQ(t.source, trace::Source::Measured);
    ASSERT_EQ(t.events.size(), b.p.instructions.size());
    for (std::size_t i = 0; i < t.events.size(); ++i) {
        const trace::Event& e = t.events[i];
        EXPECT_EQ(e.id, i);
        EXPECT_EQ(e.source, trace::Source::Measured);
        EXPECT_LE(e.startPs, e.endPs);
        EXPECT_GE(e.startPs, 0);
    }
    EXPECT_EQ(t.events[0].kind, trace::EventKind::Transfer);
    EXPECT_EQ(t.pathName(t.events[0]), "load");
    EXPECT_EQ(t.events[0].bytes, 24u);
    EXPECT_EQ(t.events[1].kind, trace::EventKind::Wait);
    EXPECT_EQ(t.events[1].link, 0);  // the transfer it waited on
    EXPECT_EQ(t.events[3].link, 2);
    EXPECT_LE(t.events[0].endPs, t.events[1].startPs); // one core issues in order
    EXPECT_EQ(result->totalsNs.size(), 1u);
}

TEST(Runtime, BarrierOrdersCoresAndBroadcastReachesEveryScratch) {
    Builder b;
    // Core 0 writes y rows 0..1 from x rows 0..1 (cols 0..2) and broadcasts x rows 2..3 to both
    // scratches; after the barrier core 1 copies y rows 0..1 (core 0's result) into y rows 2..3
    // and core 0 stores the broadcast rows it did not load itself... from core 1's scratch.
    b.move(0, "load", access("dram", 0, kX, {2, 3}, {6, 1}), access("scratch", 0, 0, {2, 3}, {3, 1}), 1);
    b.wait(0, 1);
    b.move(0, "store", access("scratch", 0, 0, {2, 3}, {3, 1}), access("dram", 0, kY, {2, 3}, {3, 1}), 2);
    b.wait(0, 2);
    compiler::Transfer bc;
    bc.path = "bcast";
    bc.source = access("dram", 0, kX + 12 * 4, {2, 3}, {6, 1});
    bc.destination = access("scratch", 0, 256, {2, 3}, {3, 1});
    bc.bytes = 24;
    bc.tag = 3;
    bc.value = ir::ValueId(0);
    bc.alsoTo = {1};
    b.add(0, bc);
    b.wait(0, 3);
    b.barrier();
    b.move(1, "load", access("dram", 0, kY, {2, 3}, {3, 1}), access("scratch", 1, 0, {2, 3}, {3, 1}), 1);
    b.wait(1, 1);
    b.move(1, "store", access("scratch", 1, 0, {2, 3}, {3, 1}), access("dram", 0, kY + 24, {1, 3}, {3, 1}), 2);
    b.wait(1, 2);
    b.barrier();
    // Row 3 of y from core 1's copy of the broadcast (x row 3, cols 0..2).
    b.move(1, "store", access("scratch", 1, 256 + 12, {1, 3}, {3, 1}), access("dram", 0, kY + 36, {1, 3}, {3, 1}), 3);
    b.wait(1, 3);

    auto result = runtime::run(b.p, hostLike(), boxGraph(), {iota({4, 6})}, {.repeat = 3});
    ASSERT_TRUE(result) << joined(result.diagnostics());
    EXPECT_EQ(floatsOf(result->outputs[0]), (std::vector<float>{1, 2, 3, 7, 8, 9, 1, 2, 3, 19, 20, 21}));
    EXPECT_EQ(result->totalsNs.size(), 3u);
    // Core 1 leaves barrier 0 only after core 0 reached it.
    const trace::Trace& t = result->trace;
    const trace::Event* arrive0 = nullptr;
    const trace::Event* leave1 = nullptr;
    for (const trace::Event& e : t.events)
        if (e.kind == trace::EventKind::Barrier && e.link == 0) (e.core == 0 ? arrive0 : leave1) = &e;
    ASSERT_TRUE(arrive0 && leave1);
    EXPECT_GE(leave1->endPs, arrive0->startPs);
}

void expectRefused(const compiler::Program& p, const std::string& needle,
                   std::vector<reference::Tensor> inputs = {iota({4, 6})}) {
    auto result = runtime::run(p, hostLike(), boxGraph(), inputs);
    ASSERT_FALSE(result) << "ran a program that should be refused (" << needle << ")";
    EXPECT_TRUE(mentions(result.diagnostics(), needle)) << joined(result.diagnostics());
}

TEST(Runtime, RefusesMalformedPrograms) {
    {
        Builder b;
        b.move(0, "teleport", access("dram", 0, kX, {6}, {1}), access("scratch", 0, 0, {6}, {1}), 1);
        b.wait(0, 1);
        expectRefused(b.p, "no path 'teleport'");
    }
    {
        Builder b;
        b.move(0, "load", access("dram", 0, kX, {6}, {1}), access("L9", 0, 0, {6}, {1}), 1);
        b.wait(0, 1);
        expectRefused(b.p, "memory 'L9'");
    }
    {
        Builder b; // past the end of the 4 KiB scratch
        b.move(0, "load", access("dram", 0, kX, {2, 3}, {6, 1}), access("scratch", 0, 4090, {2, 3}, {3, 1}), 1);
        b.wait(0, 1);
        expectRefused(b.p, "outside scratch");
    }
    {
        Builder b; // past the end of main memory
        b.move(0, "load", access("dram", 0, kY + 40, {2, 3}, {6, 1}), access("scratch", 0, 0, {2, 3}, {3, 1}), 1);
        b.wait(0, 1);
        expectRefused(b.p, "outside dram");
    }
    {
        Builder b; // a scratch instance that does not exist
        b.move(0, "load", access("dram", 0, kX, {6}, {1}), access("scratch", 5, 0, {6}, {1}), 1);
        b.wait(0, 1);
        expectRefused(b.p, "instance 5 does not exist");
    }
    {
        Builder b;
        b.wait(0, 42);
        expectRefused(b.p, "tag t42");
    }
    {
        Builder b; // weights are written once, before the first pass: none may be stored into
        b.p.dram[0].role = compiler::DramBuffer::Role::Weight;
        b.move(0, "store", access("scratch", 0, 0, {6}, {1}), access("dram", 0, kX + 8, {6}, {1}),
               1);
        b.wait(0, 1);
        expectRefused(b.p, "stores into the buffer of weight 'x'");
    }
    {
        Builder b; // strides of another rank than the shape
        b.move(0, "load", access("dram", 0, kX, {2, 3}, {6}), access("scratch", 0, 0, {2, 3}, {3, 1}), 1);
        b.wait(0, 1);
        expectRefused(b.p, "differ in rank");
    }
    {
        Builder b; // a compute for an op the graph does not have
        b.add(0, compiler::Compute{"Relu", 0, {}, {}});
        b.p.instructions.back().from.op = ir::OpId(3);
        expectRefused(b.p, "not in the model");
    }
}

TEST(Runtime, RefusesInputsThatDoNotFitTheModel) {
    Builder b;
    expectRefused(b.p, "0 inputs given, the model has 1", {});
    expectRefused(b.p, "input 'x' is float32 2x2", {iota({2, 2})});
    auto bad = runtime::run(b.p, hostLike(), boxGraph(), {iota({4, 6})}, {.repeat = 0});
    ASSERT_FALSE(bad);
    EXPECT_TRUE(mentions(bad.diagnostics(), "repeat")) << joined(bad.diagnostics());
}

// An embedding lookup as transformer exports have it: Gather of a weight by int64 tokens
// (negative ones count from the end), then a MatMul.
TEST(Runtime, EmbeddingLookupMatchesTheReference) {
    auto values = [](int count, float scale) {
        std::string text;
        for (int i = 0; i < count; ++i) text += (i ? ", " : "") + std::to_string(scale * float((i * 37) % 23 - 11));
        return text;
    };
    auto m = importText("<ir_version: 8, opset_import: [\"\" : 17]>\n"
                        "g (int64[1, 6] tokens) => (float[1, 6, 4] y) <float[10, 8] table = {" + values(80, 0.1f) +
                        "}, float[8, 4] proj = {" + values(32, 0.05f) + "}> {\n"
                        "    e = Gather <axis = 0> (table, tokens)\n"
                        "    y = MatMul (e, proj)\n}\n");
    ASSERT_TRUE(m) << joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    auto target = target::resolveTarget("host");
    ASSERT_TRUE(target);
    const std::vector<std::int64_t> tokens = {3, 0, 9, -1, 5, -10};
    const std::vector<reference::Tensor> inputs = {reference::fromInt64s({1, 6}, tokens)};
    auto expected = reference::evaluate(g, inputs);
    ASSERT_TRUE(expected) << joined(expected.diagnostics());
    for (auto strategy : {schedule::Strategy::PerOp, schedule::Strategy::FuseMax}) {
        auto compiled = compiler::compile(g, *target, schedule::makeSchedule(g, *target, strategy));
        ASSERT_TRUE(compiled) << joined(compiled.diagnostics());
        auto result = runtime::run(compiled->program, *target, g, inputs);
        ASSERT_TRUE(result) << joined(result.diagnostics());
        auto c = reference::compare(result->outputs[0], (*expected)[0], 1e-5, 1e-4);
        EXPECT_TRUE(c.ok) << c.message;
    }
}

// The workers flush denormals to zero (Executor.cpp says why): twice the smallest denormal,
// which the reference keeps, runs as zero; normal values are untouched.
TEST(Runtime, WorkersFlushDenormalsToZero) {
#if !defined(__SSE__)
    GTEST_SKIP() << "denormals are flushed on x86 only";
#endif
    auto m = importText("<ir_version: 8, opset_import: [\"\" : 17]>\n"
                        "g (float[1, 4] x) => (float[1, 4] y) {\n    y = Add (x, x)\n}\n");
    ASSERT_TRUE(m) << joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    auto target = target::resolveTarget("host");
    ASSERT_TRUE(target);
    const float tiny = std::numeric_limits<float>::denorm_min();
    const std::vector<float> x = {tiny, 1e-39f, 1e-30f, 3.0f};
    const std::vector<reference::Tensor> inputs = {reference::fromFloats({1, 4}, x)};
    auto compiled = compiler::compile(g, *target, schedule::makeSchedule(g, *target, schedule::Strategy::PerOp));
    ASSERT_TRUE(compiled) << joined(compiled.diagnostics());
    auto result = runtime::run(compiled->program, *target, g, inputs);
    ASSERT_TRUE(result) << joined(result.diagnostics());
    const float* y = result->outputs[0].floats();
    EXPECT_EQ(std::vector<float>(y, y + 4), (std::vector<float>{0.0f, 0.0f, 2e-30f, 6.0f}));
}

// Compiled samples: the outputs match the reference evaluation of the unfused graph.
struct Case {
    const char* sample;
    schedule::Strategy strategy;
};

class RuntimeSamples : public ::testing::TestWithParam<Case> {};

TEST_P(RuntimeSamples, OutputsMatchTheReference) {
    auto m = model::importOnnxFile(std::string(STRATA_SAMPLES_DIR) + "/" + GetParam().sample);
    ASSERT_TRUE(m) << joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    auto target = target::resolveTarget("host");
    ASSERT_TRUE(target) << joined(target.diagnostics());
    auto compiled = compiler::compile(g, *target, schedule::makeSchedule(g, *target, GetParam().strategy));
    ASSERT_TRUE(compiled) << joined(compiled.diagnostics());
    const auto inputs = reference::sampleInputs(g, 11);
    auto expected = reference::evaluate(g, inputs);
    ASSERT_TRUE(expected) << joined(expected.diagnostics());
    auto result = runtime::run(compiled->program, *target, g, inputs);
    ASSERT_TRUE(result) << joined(result.diagnostics());
    ASSERT_EQ(result->outputs.size(), expected->size());
    for (std::size_t i = 0; i < expected->size(); ++i) {
        auto c = reference::compare(result->outputs[i], (*expected)[i], 1e-4, 1e-3);
        EXPECT_TRUE(c.ok) << g.value(g.outputs[i]).name << ": " << c.message;
    }
    EXPECT_EQ(result->trace.events.size(), compiled->program.instructions.size());
}

// The runs calibration makes: a committed sample compiled for the host on every core, its
// sample inputs and the reference's outputs to compare with.
class CalibrationRuns : public ::testing::Test {
  protected:
    void load(const std::string& sample, schedule::Strategy strategy, std::uint64_t seed) {
        auto m = model::importOnnxFile(std::string(STRATA_SAMPLES_DIR) + "/" + sample);
        ASSERT_TRUE(m) << joined(m.diagnostics());
        graph = m->graph;
        auto host = target::resolveTarget("host");
        ASSERT_TRUE(host) << joined(host.diagnostics());
        target = std::move(*host);
        auto c =
            compiler::compile(*graph, target, schedule::makeSchedule(*graph, target, strategy));
        ASSERT_TRUE(c) << joined(c.diagnostics());
        program = std::move(c->program);
        inputs = reference::sampleInputs(*graph, seed);
        auto e = reference::evaluate(*graph, inputs);
        ASSERT_TRUE(e) << joined(e.diagnostics());
        expected = std::move(*e);
    }

    void expectTheModelsOutputs(const std::vector<reference::Tensor>& outputs) const {
        ASSERT_EQ(outputs.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            auto c = reference::compare(outputs[i], expected[i], 1e-4, 1e-3);
            EXPECT_TRUE(c.ok) << graph->value(graph->outputs[i]).name << ": " << c.message;
        }
    }

    std::shared_ptr<const ir::Graph> graph;
    target::Target target;
    compiler::Program program;
    std::vector<reference::Tensor> inputs;
    std::vector<reference::Tensor> expected;
};

TEST_F(CalibrationRuns, ColdOutputsAreStillTheModelsOutputsAndCanBeLeftUnread) {
    // Calibration's runs drop the outputs' lines from the caches before every pass, have each
    // core write MiBs of its own (CacheChurn), and read nothing back but the timeline.
    ASSERT_NO_FATAL_FAILURE(load("resnet_tiny.onnx", schedule::Strategy::Rules, 5));
    runtime::CacheChurn churn(3u << 20, program.cores);
    auto result = runtime::run(program, target, *graph, inputs,
                               {.repeat = 3, .coldOutputs = true, .churn = &churn});
    ASSERT_TRUE(result) << joined(result.diagnostics());
    EXPECT_EQ(result->totalsNs.size(), 3u);
    expectTheModelsOutputs(result->outputs);

    auto timesOnly =
        runtime::run(program, target, *graph, inputs,
                     {.repeat = 2, .coldOutputs = true, .churn = &churn, .readOutputs = false});
    ASSERT_TRUE(timesOnly) << joined(timesOnly.diagnostics());
    EXPECT_TRUE(timesOnly->outputs.empty());
    EXPECT_EQ(timesOnly->totalsNs.size(), 2u);
    ASSERT_EQ(timesOnly->trace.events.size(), program.instructions.size());
    for (const trace::Event& e : timesOnly->trace.events)
        EXPECT_GE(e.endPs, e.startPs);
    EXPECT_GT(timesOnly->trace.events.back().endPs, 0);
}

TEST_F(CalibrationRuns, WarmUpPassesAreDroppedAndChurnedBeforeNoneOfThem) {
    // Calibration runs a warm-up pass, then churns the caches and measures: the warm-up's time
    // is in no total, and each core writes its churn buffer before the kept passes only.
    ASSERT_NO_FATAL_FAILURE(load("resnet_tiny.onnx", schedule::Strategy::Rules, 5));
    runtime::CacheChurn churn(1u << 20, program.cores);
    auto result =
        runtime::run(program, target, *graph, inputs, {.repeat = 2, .warmUps = 3, .churn = &churn});
    ASSERT_TRUE(result) << joined(result.diagnostics());
    EXPECT_EQ(result->totalsNs.size(), 2u);
    EXPECT_EQ(churn.writes(), 2u * static_cast<std::uint64_t>(program.cores));
    expectTheModelsOutputs(result->outputs);

    auto negative = runtime::run(program, target, *graph, inputs, {.warmUps = -1});
    ASSERT_FALSE(negative);
    EXPECT_NE(joined(negative.diagnostics()).find("warm-up passes cannot be fewer than none"),
              std::string::npos)
        << joined(negative.diagnostics());
}

TEST_F(CalibrationRuns, KeptMemoriesFullOfAnotherRunsBytesGiveTheSameOutputs) {
    // Calibration hands every run the same buffers (RunOptions::memories): what an earlier
    // program left in them, here NaNs everywhere, must not reach a later one's outputs.
    ASSERT_NO_FATAL_FAILURE(load("mobilenet_tiny.onnx", schedule::Strategy::FuseMax, 3));
    const target::MemorySpace* working = target.findMemory(target.workingMemory);
    ASSERT_NE(working, nullptr);
    const std::uint64_t mainBytes = runtime::mainMemoryBytes(program, *graph);
    runtime::Memories kept;
    kept.sizeFor(mainBytes + (1u << 20), working->capacityBytes, target.cores());
    for (runtime::Buffer* b : {&kept.main, &kept.scratch.front(), &kept.scratch.back()})
        std::memset(b->data(), 0xff, b->size()); // 0xffffffff: a NaN in every float
    const unsigned char* mainBefore = kept.main.data();

    auto result = runtime::run(program, target, *graph, inputs,
                               {.repeat = 2, .warmUps = 1, .memories = &kept});
    ASSERT_TRUE(result) << joined(result.diagnostics());
    EXPECT_EQ(kept.main.data(), mainBefore); // it had room: the same bytes, not new ones
    EXPECT_EQ(kept.main.size(), mainBytes);
    expectTheModelsOutputs(result->outputs);
}

using schedule::Strategy;
INSTANTIATE_TEST_SUITE_P(Samples, RuntimeSamples,
                         ::testing::Values(Case{"resnet_tiny.onnx", Strategy::PerOp},
                                           Case{"resnet_tiny.onnx", Strategy::FuseMax},
                                           Case{"mobilenet_tiny.onnx", Strategy::PerOp},
                                           Case{"mobilenet_tiny.onnx", Strategy::FuseMax},
                                           Case{"transformer_block.onnx", Strategy::PerOp},
                                           Case{"transformer_block.onnx", Strategy::FuseMax}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                             std::string name = std::string(info.param.sample) + "_" +
                                                std::string(schedule::strategyName(info.param.strategy));
                             for (char& ch : name)
                                 if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                             return name;
                         });

} // namespace
} // namespace strata::test
