// The C++ emitter: the generated file builds with the system compiler and reproduces an unfused
// reference evaluation of the same graph, for the samples on every preset and strategy, and for
// ops strata_rt has no kernel for (which run on the reference evaluator's kernels, carried in the
// file).

#include "compiler/emit/CppEmitter.h"

#include "CompilerFixtures.h"
#include "compiler/Pipeline.h"
#include "reference/Compare.h"
#include "reference/Evaluator.h"
#include "schedule/Strategies.h"
#include "support/TestModels.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <sstream>

namespace strata::test {
namespace {

using compiler::CppProgram;

std::string idText(compiler::InstrId id) {
    std::string digits = std::to_string(id);
    return "// i" + std::string(6 - std::min<std::size_t>(6, digits.size()), '0') + digits + " ";
}

compiler::Program compileWith(const ir::Graph& g, const target::Target& t,
                              schedule::Strategy strategy) {
    auto result = compiler::compile(g, t, schedule::makeSchedule(g, t, strategy));
    if (!result)
        throw std::runtime_error(joined(result.diagnostics()));
    return std::move(result->program);
}

void writeBytes(const std::filesystem::path& path, const void* data, std::size_t size) {
    std::ofstream out(path, std::ios::binary);
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
}

std::string readBytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Builds the generated file (with every read checked against its operand box) and runs it on
// sample inputs; returns the outputs it wrote, one tensor per graph output.
std::vector<reference::Tensor> buildAndRun(const ir::Graph& g, const CppProgram& cpp,
                                           const TempDir& dir,
                                           const std::vector<reference::Tensor>& inputs,
                                           const std::string& flags = "") {
    writeBytes(dir.path() / "model.cpp", cpp.source.data(), cpp.source.size());
    writeBytes(dir.path() / "model.weights.bin", cpp.weights.data(), cpp.weights.size());
    std::string in;
    for (const auto& t : inputs)
        in.append(reinterpret_cast<const char*>(t.bytes.data()), t.bytes.size());
    writeBytes(dir.path() / "input.bin", in.data(), in.size());

    const std::string p = dir.path().string();
    const std::string build = std::string(STRATA_CXX) + " -O2 -std=c++20 -DSTRATA_RT_CHECK " +
                              flags + " " + p + "/model.cpp -o " + p + "/model -pthread" +
                              (flags.find("STRATA_RT_DNNL") != std::string::npos ? " -ldnnl" : "") +
                              " 2> " + p + "/build.log";
    if (std::system(build.c_str()) != 0) {
        ADD_FAILURE() << "the generated C++ does not build:\n"
                      << readBytes(dir.path() / "build.log").substr(0, 4000);
        return {};
    }
    const std::string run = p + "/model " + p + "/model.weights.bin " + p + "/input.bin " + p +
                            "/output.bin 2> " + p + "/run.log";
    if (std::system(run.c_str()) != 0) {
        ADD_FAILURE() << "the generated program failed:\n" << readBytes(dir.path() / "run.log");
        return {};
    }
    const std::string out = readBytes(dir.path() / "output.bin");
    EXPECT_EQ(out.size(), cpp.outputBytes);
    std::vector<reference::Tensor> outputs;
    std::size_t at = 0;
    for (ir::ValueId id : g.outputs) {
        const ir::Value& v = g.value(id);
        reference::Tensor t{v.dtype, v.shape, std::vector<std::byte>(v.bytes())};
        if (at + v.bytes() <= out.size())
            std::memcpy(t.bytes.data(), out.data() + at, v.bytes());
        at += v.bytes();
        outputs.push_back(std::move(t));
    }
    return outputs;
}

void expectMatchesReference(const ir::Graph& g, const compiler::Program& program,
                            const std::string& flags = "") {
    auto cpp = compiler::emitCpp(program, g);
    ASSERT_TRUE(cpp) << joined(cpp.diagnostics());
    const auto inputs = reference::sampleInputs(g, 7);
    auto expected = reference::evaluate(g, inputs);
    ASSERT_TRUE(expected) << joined(expected.diagnostics());
    TempDir dir;
    const auto actual = buildAndRun(g, *cpp, dir, inputs, flags);
    ASSERT_EQ(actual.size(), expected->size());
    for (std::size_t i = 0; i < actual.size(); ++i) {
        auto c = reference::compare(actual[i], (*expected)[i], 1e-4, 1e-3);
        EXPECT_TRUE(c.ok) << g.value(g.outputs[i]).name << ": " << c.message;
    }
}

struct Case {
    const char* sample;
    const char* target;
    schedule::Strategy strategy;
};

class CppEmitterSamples : public ::testing::TestWithParam<Case> {};

TEST_P(CppEmitterSamples, GeneratedCodeReproducesTheReference) {
    const Case& c = GetParam();
    auto g = sampleGraph(c.sample);
    expectMatchesReference(*g, compileWith(*g, presetTarget(c.target), c.strategy));
}

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
    std::string name = std::string(info.param.sample) + "_" + info.param.target + "_" +
                       std::string(schedule::strategyName(info.param.strategy));
    for (char& ch : name)
        if (!std::isalnum(static_cast<unsigned char>(ch)))
            ch = '_';
    return name;
}

using schedule::Strategy;
INSTANTIATE_TEST_SUITE_P(
    Samples, CppEmitterSamples,
    ::testing::Values(Case{"resnet_tiny.onnx", "host", Strategy::PerOp},
                      Case{"resnet_tiny.onnx", "host", Strategy::Rules},
                      Case{"resnet_tiny.onnx", "host", Strategy::FuseMax},
                      Case{"resnet_tiny.onnx", "mncore2", Strategy::FuseMax},
                      Case{"resnet_tiny.onnx", "mlu100", Strategy::Rules},
                      Case{"mobilenet_tiny.onnx", "host", Strategy::Rules},
                      Case{"mobilenet_tiny.onnx", "host", Strategy::FuseMax},
                      Case{"mobilenet_tiny.onnx", "mncore2", Strategy::FuseMax},
                      Case{"transformer_block.onnx", "host", Strategy::PerOp},
                      Case{"transformer_block.onnx", "host", Strategy::FuseMax},
                      Case{"transformer_block.onnx", "mncore2", Strategy::Rules}),
    caseName);

TEST(CppEmitter, ThreadedBuildMatchesToo) {
    auto g = sampleGraph("resnet_tiny.onnx");
    expectMatchesReference(*g, compileWith(*g, presetTarget("host"), Strategy::FuseMax),
                           "-DSTRATA_THREADS");
}

// The library build (-DSTRATA_RT_DNNL -ldnnl: convolutions, Gemm and MatMul on oneDNN's sgemm)
// computes the same outputs, on tiles of several targets, and threaded.
TEST(CppEmitter, OneDnnBuildMatchesToo) {
    for (const char* sample :
         {"resnet_tiny.onnx", "mobilenet_tiny.onnx", "transformer_block.onnx"}) {
        SCOPED_TRACE(sample);
        auto g = sampleGraph(sample);
        expectMatchesReference(*g, compileWith(*g, presetTarget("mncore2"), Strategy::Rules),
                               "-DSTRATA_RT_DNNL");
    }
    auto g = sampleGraph("resnet_tiny.onnx");
    expectMatchesReference(*g, compileWith(*g, presetTarget("host"), Strategy::FuseMax),
                           "-DSTRATA_RT_DNNL -DSTRATA_THREADS");
}

// Larger models on request: STRATA_CPP_MODELS=a.onnx:b.onnx (e.g. the benchmark exports,
// tests/bench/make_bench_models.sh), each compiled for the host with the rules and fuse-max
// schedules; STRATA_CPP_TARGETS=host,mncore2 to change the targets.
TEST(CppEmitter, ModelsFromEnvironment) {
    const char* list = std::getenv("STRATA_CPP_MODELS");
    if (!list || !*list)
        GTEST_SKIP() << "set STRATA_CPP_MODELS to check more models";
    const char* targetList = std::getenv("STRATA_CPP_TARGETS");
    std::stringstream paths(list), targets(targetList && *targetList ? targetList : "host");
    std::vector<std::string> targetNames;
    for (std::string name; std::getline(targets, name, ',');)
        targetNames.push_back(name);
    // STRATA_CPP_STRATEGIES=rules checks one schedule of a large model (default rules,fuse-max).
    const char* strategyList = std::getenv("STRATA_CPP_STRATEGIES");
    std::stringstream strategyNames(strategyList && *strategyList ? strategyList
                                                                  : "rules,fuse-max");
    std::vector<Strategy> strategies;
    for (std::string name; std::getline(strategyNames, name, ',');) {
        auto strategy = schedule::parseStrategy(name);
        ASSERT_TRUE(strategy) << "STRATA_CPP_STRATEGIES: no strategy '" << name << "'";
        strategies.push_back(*strategy);
    }
    for (std::string path; std::getline(paths, path, ':');) {
        auto m = model::importOnnxFile(path);
        ASSERT_TRUE(m.ok()) << path << ": " << joined(m.diagnostics());
        for (const std::string& targetName : targetNames)
            for (Strategy strategy : strategies) {
                SCOPED_TRACE(path + " " + targetName + " " +
                             std::string(schedule::strategyName(strategy)));
                expectMatchesReference(*m->graph,
                                       compileWith(*m->graph, presetTarget(targetName), strategy));
            }
    }
}

TEST(CppEmitter, FilesDescribeThemselves) {
    auto g = sampleGraph("resnet_tiny.onnx");
    const auto program = compileWith(*g, presetTarget("host"), Strategy::Rules);
    auto cpp = compiler::emitCpp(program, *g);
    ASSERT_TRUE(cpp) << joined(cpp.diagnostics());
    std::uint64_t weightBytes = 0;
    for (const auto& b : program.dram)
        if (b.role == compiler::DramBuffer::Role::Weight)
            weightBytes += b.bytes;
    EXPECT_EQ(cpp->weights.size(), weightBytes);
    EXPECT_EQ(cpp->inputBytes, g->value(g->inputs[0]).bytes());
    EXPECT_EQ(cpp->outputBytes, g->value(g->outputs[0]).bytes());
    // Every instruction appears under its assembly line, and the header says how to build it.
    for (const auto& in : program.instructions)
        EXPECT_NE(cpp->source.find(idText(in.id)), std::string::npos) << in.id;
    EXPECT_NE(cpp->source.find("g++ -O2 -std=c++20 resnet_tiny.cpp"), std::string::npos);
}

// Split (one rt::sliceBoxes per output), Where over a broadcast mask and Expand (a Map of the
// identity) in generated code, per op and fused.
TEST(CppEmitter, SplitWhereAndExpandReproduceTheReference) {
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 16, 24] X, bool[1, 16, 8] M, float[1, 1, 8] T) => (float[2, 16, 8] Y) <int64[3] parts = {8, 8, 8}, int64[3] shape = {2, 16, 8}> {
    q, k, v = Split <axis = 2> (X, parts)
    e = Expand (T, shape)
    w = Where (M, q, e)
    s = Mul (w, k)
    Y = Add (s, v)
}
)");
    ASSERT_TRUE(m) << joined(m.diagnostics());
    for (auto strategy : {Strategy::PerOp, Strategy::FuseMax})
        expectMatchesReference(*m->graph, compileWith(*m->graph, presetTarget("host"), strategy));
}

// Attention plumbing in generated code, on strata_rt's row-wise and box moves: Reshape to heads,
// Transpose, a Gather of one index per q/k/v (Swin's split), a Gather of an index row, a strided
// Slice, a Concat and a Pad. Per op and fused, so tiles hold part of each box.
TEST(CppEmitter, MovementByRowsReproducesTheReference) {
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 12, 48] X) => (float[2, 12, 8] Y, float[1, 6, 4, 8] Z, float[1, 4, 12, 8] W, float[1, 2, 13, 11] P) <int64[5] heads = {1, 12, 3, 2, 8}, int64 zero = {0}, int64 one = {1}, int64[2] rows = {2, 0}, int64[1] s0 = {1}, int64[1] s1 = {12}, int64[1] ax = {1}, int64[1] st = {2}, int64[3] flat = {2, 12, 8}, int64[4] zshape = {1, 6, 4, 8}, int64[8] pads = {0, 0, 1, 2, 0, 0, 0, 1}> {
    h = Reshape (X, heads)
    t = Transpose <perm = [2, 0, 3, 1, 4]> (h)
    q = Gather <axis = 0> (t, zero)
    k = Gather <axis = 0> (t, one)
    s = Add (q, k)
    Y = Reshape (s, flat)
    r = Gather <axis = 2> (h, rows)
    c = Slice (r, s0, s1, ax, st)
    Z = Reshape (c, zshape)
    W = Concat <axis = 1> (q, k)
    P = Pad (s, pads)
}
)");
    ASSERT_TRUE(m) << joined(m.diagnostics());
    for (auto strategy : {Strategy::PerOp, Strategy::FuseMax})
        expectMatchesReference(*m->graph, compileWith(*m->graph, presetTarget("host"), strategy));
}

// Resize in generated code: the taps are tables the emitter computes with the reference's
// mapping. Every mode torch and TF export, by scales and by sizes, in one graph; per op on the
// host, and fused and cut into tiles by a small working memory.
TEST(CppEmitter, ResizeReproducesTheReference) {
    const char* modes[][3] = {
        {"nearest", "asymmetric", "floor"},   {"nearest", "half_pixel", "round_prefer_ceil"},
        {"linear", "pytorch_half_pixel", ""}, {"linear", "align_corners", ""},
        {"cubic", "half_pixel", ""},
    };
    std::string outputs, body;
    for (std::size_t i = 0; i < std::size(modes); ++i) {
        const auto& [mode, transform, nearest] = modes[i];
        const std::string attrs =
            std::string("<mode = \"") + mode + "\", coordinate_transformation_mode = \"" +
            transform + "\"" +
            (*nearest ? std::string(", nearest_mode = \"") + nearest + "\"" : "") + ">";
        const std::string k = std::to_string(i);
        outputs += ", float[1, 3, 24, 25] y" + k + ", float[1, 3, 7, 20] z" + k;
        body += "    u" + k + " = Resize " + attrs + " (r, , scales)\n    y" + k + " = Sigmoid (u" +
                k + ")\n    z" + k + " = Resize " + attrs + " (x, , , sizes)\n";
    }
    auto m =
        importText("<ir_version: 8, opset_import: [\"\" : 17]>\ng (float[1, 3, 12, 10] x) => (" +
                   outputs.substr(2) +
                   ") <float[4] scales = {1, 1, 2, 2.5}, int64[4] sizes = {1, 3, 7, 20}> {\n"
                   "    r = Relu (x)\n" +
                   body + "}\n");
    ASSERT_TRUE(m) << joined(m.diagnostics());
    target::Target small = presetTarget("host");
    for (auto& memory : small.memories)
        if (memory.name == small.workingMemory)
            memory.capacityBytes = 16 * 1024;
    expectMatchesReference(*m->graph,
                           compileWith(*m->graph, presetTarget("host"), Strategy::PerOp));
    expectMatchesReference(*m->graph, compileWith(*m->graph, small, Strategy::FuseMax));
}

// A convolution too big for a 4 KiB working memory runs in input-channel slices, the later ones
// accumulating (docs/SCHEDULES.md): the generated C++ reproduces the reference, plain and with
// oneDNN.
TEST(CppEmitter, SlicedConvolutionReproducesTheReference) {
    auto m = importText(
        "<ir_version: 8, opset_import: [\"\" : 17]>\n"
        "g (float[1, 64, 8, 8] X, float[8, 64, 3, 3] W, float[8] B) => (float[1, 8, 8, 8] Y) {\n"
        "    Y = Conv <pads = [1, 1, 1, 1]> (X, W, B)\n}\n");
    ASSERT_TRUE(m) << joined(m.diagnostics());
    target::Target t = presetTarget("mncore2");
    for (target::MemorySpace& memory : t.memories)
        if (memory.name == t.workingMemory)
            memory.capacityBytes = 4096;
    const compiler::Program p = compileWith(*m->graph, t, schedule::Strategy::PerOp);
    const bool accumulates =
        std::any_of(p.instructions.begin(), p.instructions.end(), [](const auto& in) {
            const auto* c = std::get_if<compiler::Compute>(&in.body);
            return c && c->accumulate;
        });
    ASSERT_TRUE(accumulates);
    expectMatchesReference(*m->graph, p);
    expectMatchesReference(*m->graph, p, "-DSTRATA_RT_DNNL");
}

// An inverted-residual block on the host (channel granule 16): the expansion writes its box
// channels-last for the depthwise convolution, the projection reads it so (docs/ISA.md, Layouts);
// the generated C++ reproduces the reference, plain and with oneDNN.
TEST(CppEmitter, ChannelsLastInvertedResidualReproducesTheReference) {
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 16, 8, 8] X, float[32, 16, 1, 1] W1, float[32, 1, 3, 3] W2, float[16, 32, 1, 1] W3) => (float[1, 16, 8, 8] Y) <float lo = {0.0}, float hi = {6.0}> {
    E = Conv (X, W1)
    F = Clip (E, lo, hi)
    D = Conv <group = 32, pads = [1, 1, 1, 1]> (F, W2)
    G = Clip (D, lo, hi)
    P = Conv (G, W3)
    Y = Add (P, X)
}
)");
    ASSERT_TRUE(m) << joined(m.diagnostics());
    const target::Target t = presetTarget("host");
    ASSERT_GT(t.channelGranule, 1);
    const compiler::Program p = compileWith(*m->graph, t, Strategy::FuseMax);
    const bool channelsLast =
        std::any_of(p.instructions.begin(), p.instructions.end(), [](const auto& in) {
            const auto* c = std::get_if<compiler::Compute>(&in.body);
            return c && c->opType == "Conv" &&
                   c->outputs[0].channelBlock == compiler::kChannelsLast;
        });
    ASSERT_TRUE(channelsLast);
    expectMatchesReference(*m->graph, p);
    expectMatchesReference(*m->graph, p, "-DSTRATA_RT_DNNL");
}

// Depthwise convolutions on strata_rt's channels-last kernel (the host runtime's,
// strata_rt_depthwise.h): a 5x5 stride-2 window with biases over 72 channels (four vectors of
// sixteen and a rest) on odd planes, tiled with halos by fuse-max, and the same convolutions on
// row-major boxes (per-op), in the plain and the oneDNN builds.
TEST(CppEmitter, ChannelsLastDepthwiseReproducesTheReference) {
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 24, 15, 13] X, float[72, 24, 1, 1] W1, float[72, 1, 5, 5] W2, float[72] B2, float[72, 1, 3, 3] W3, float[24, 72, 1, 1] W4) => (float[1, 24, 8, 7] Y) <float lo = {0.0}, float hi = {6.0}> {
    E = Conv (X, W1)
    F = Clip (E, lo, hi)
    D = Conv <group = 72, pads = [2, 2, 2, 2], strides = [2, 2]> (F, W2, B2)
    G = Relu (D)
    H = Conv <group = 72, pads = [1, 1, 1, 1]> (G, W3)
    Y = Conv (H, W4)
}
)");
    ASSERT_TRUE(m) << joined(m.diagnostics());
    const target::Target t = presetTarget("host");
    const compiler::Program fused = compileWith(*m->graph, t, Strategy::FuseMax);
    auto cpp = compiler::emitCpp(fused, *m->graph);
    ASSERT_TRUE(cpp) << joined(cpp.diagnostics());
    // Both depthwise convolutions (72 groups) read channels-last boxes; the one a pointwise
    // convolution reads may write row-major (compiler/passes/ChooseLayouts).
    std::size_t depthwiseLast = 0;
    std::istringstream lines(cpp->source);
    for (std::string line; std::getline(lines, line);)
        depthwiseLast += line.find("rt::conv2dBlocked(") != std::string::npos &&
                         line.find("}}, 72, ") != std::string::npos &&
                         (line.ends_with(", -1, -1);") || line.ends_with(", -1, 0);"));
    ASSERT_GE(depthwiseLast, 2u);
    expectMatchesReference(*m->graph, fused);
    expectMatchesReference(*m->graph, fused, "-DSTRATA_RT_DNNL");
    const compiler::Program perOp = compileWith(*m->graph, t, Strategy::PerOp);
    expectMatchesReference(*m->graph, perOp);
    expectMatchesReference(*m->graph, perOp, "-DSTRATA_RT_DNNL");
}

// Fused epilogues (compiler/passes/FuseEpilogues.h): a convolution's residual add and Relu, a
// pointwise one's Clip and a Gemm's Sigmoid, each one statement under its assembly line, in the
// plain build and the oneDNN build (post-ops), threaded.
TEST(CppEmitter, FusedEpiloguesReproduceTheReference) {
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 8, 9, 9] X, float[8, 8, 3, 3] W, float[8] B, float[1, 8, 9, 9] R, float[8, 8, 1, 1] P, float[648, 6] G) => (float[1, 6] Y) <float lo = {0.0}, float hi = {6.0}> {
    C = Conv <pads = [1, 1, 1, 1]> (X, W, B)
    A = Add (C, R)
    E = Relu (A)
    Q = Conv (E, P)
    K = Clip (Q, lo, hi)
    F = Flatten (K)
    M = Gemm (F, G)
    Y = Sigmoid (M)
}
)");
    ASSERT_TRUE(m) << joined(m.diagnostics());
    const compiler::Program p = compileWith(*m->graph, presetTarget("host"), Strategy::FuseMax);
    std::size_t fused = 0;
    for (const auto& in : p.instructions)
        if (const auto* c = std::get_if<compiler::Compute>(&in.body))
            fused += c->epilogue.size();
    ASSERT_GE(fused, 3u); // the Add, the Relu and the Clip at least
    auto cpp = compiler::emitCpp(p, *m->graph);
    ASSERT_TRUE(cpp) << joined(cpp.diagnostics());
    EXPECT_NE(cpp->source.find("{rt::Act::Relu}"), std::string::npos);
    EXPECT_NE(cpp->source.find(" +add("), std::string::npos); // the assembly line above it
    expectMatchesReference(*m->graph, p);
    expectMatchesReference(*m->graph, p, "-DSTRATA_RT_DNNL -DSTRATA_THREADS");
}

// SiLU, x * sigmoid(x), fused as one step (rt::Act::Silu): after a 3x3 convolution (oneDNN's
// swish post-op in the oneDNN build) and after a depthwise one, in both builds.
TEST(CppEmitter, FusedSiluReproducesTheReference) {
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 8, 9, 9] X, float[8, 8, 3, 3] W, float[8, 1, 3, 3] D) => (float[1, 8, 9, 9] Y) {
    C = Conv <pads = [1, 1, 1, 1]> (X, W)
    S = Sigmoid (C)
    A = Mul (C, S)
    E = Conv <pads = [1, 1, 1, 1], group = 8> (A, D)
    T = Sigmoid (E)
    Y = Mul (T, E)
}
)");
    ASSERT_TRUE(m) << joined(m.diagnostics());
    const compiler::Program p = compileWith(*m->graph, presetTarget("host"), Strategy::FuseMax);
    std::size_t silus = 0;
    for (const auto& in : p.instructions)
        if (const auto* c = std::get_if<compiler::Compute>(&in.body))
            for (const auto& step : c->epilogue)
                silus += step.opType == "SiLU";
    ASSERT_GE(silus, 2u);
    auto cpp = compiler::emitCpp(p, *m->graph);
    ASSERT_TRUE(cpp) << joined(cpp.diagnostics());
    EXPECT_NE(cpp->source.find("{rt::Act::Silu}"), std::string::npos);
    EXPECT_NE(cpp->source.find(" +silu"), std::string::npos); // the assembly line above it
    expectMatchesReference(*m->graph, p);
    expectMatchesReference(*m->graph, p, "-DSTRATA_RT_DNNL");
}

// EfficientNet's block: SiLU after the expansion and the depthwise convolution, then squeeze
// and excite (GlobalAveragePool -> 1x1 convolution -> SiLU -> 1x1 convolution -> Sigmoid ->
// Mul broadcasting [1, C, 1, 1] over the planes), on strata_rt's shared run kernels (the 16-lane
// sigmoid, the broadcast multiply) over 40 channels and 7x9 planes (runs that leave partial
// vectors), fused and per op, in the plain and the oneDNN builds.
TEST(CppEmitter, SiluAndSqueezeExciteReproduceTheReference) {
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 16, 7, 9] X, float[40, 16, 1, 1] W1, float[40, 1, 3, 3] W2, float[10, 40, 1, 1] W3, float[10] B3, float[40, 10, 1, 1] W4, float[40] B4, float[16, 40, 1, 1] W5) => (float[1, 16, 7, 9] Y) {
    E = Conv (X, W1)
    ES = Sigmoid (E)
    EA = Mul (E, ES)
    D = Conv <group = 40, pads = [1, 1, 1, 1]> (EA, W2)
    DS = Sigmoid (D)
    DA = Mul (D, DS)
    P = GlobalAveragePool (DA)
    S = Conv (P, W3, B3)
    SS = Sigmoid (S)
    SA = Mul (S, SS)
    Q = Conv (SA, W4, B4)
    G = Sigmoid (Q)
    M = Mul (DA, G)
    Y = Conv (M, W5)
}
)");
    ASSERT_TRUE(m) << joined(m.diagnostics());
    const target::Target t = presetTarget("host");
    for (const Strategy strategy : {Strategy::FuseMax, Strategy::PerOp}) {
        SCOPED_TRACE(std::string(schedule::strategyName(strategy)));
        const compiler::Program p = compileWith(*m->graph, t, strategy);
        auto cpp = compiler::emitCpp(p, *m->graph);
        ASSERT_TRUE(cpp) << joined(cpp.diagnostics());
        // The excite's broadcast Mul: a zip of its own, or a step fused into a convolution.
        EXPECT_TRUE(cpp->source.find("rt::mul)") != std::string::npos ||
                    cpp->source.find("rt::Act::Mul") != std::string::npos);
        expectMatchesReference(*m->graph, p);
        expectMatchesReference(*m->graph, p, "-DSTRATA_RT_DNNL");
    }
}

// An inverted residual with a squeeze-excite of whole vectors of channels (EfficientNet's) lives
// channels-last (tiling/DramLayouts.h): the generated file pools and scales channels-last boxes
// in their memory order.
TEST(CppEmitter, ChannelsLastSqueezeExciteReproducesTheReference) {
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 16, 7, 9] X, float[32, 16, 1, 1] W1, float[32, 1, 3, 3] W2, float[8, 32, 1, 1] W3, float[32, 8, 1, 1] W4, float[16, 32, 1, 1] W5) => (float[1, 16, 7, 9] Y) {
    E = Conv (X, W1)
    ES = Sigmoid (E)
    EA = Mul (E, ES)
    D = Conv <group = 32, pads = [1, 1, 1, 1]> (EA, W2)
    DS = Sigmoid (D)
    DA = Mul (D, DS)
    P = GlobalAveragePool (DA)
    S = Conv (P, W3)
    SR = Relu (S)
    Q = Conv (SR, W4)
    G = Sigmoid (Q)
    M = Mul (G, DA)
    Y = Conv (M, W5)
}
)");
    ASSERT_TRUE(m) << joined(m.diagnostics());
    const target::Target t = presetTarget("host");
    ASSERT_EQ(32 % t.channelGranule, 0);
    for (const Strategy strategy : {Strategy::PerOp, Strategy::FuseMax}) {
        SCOPED_TRACE(std::string(schedule::strategyName(strategy)));
        const compiler::Program p = compileWith(*m->graph, t, strategy);
        auto cpp = compiler::emitCpp(p, *m->graph);
        ASSERT_TRUE(cpp) << joined(cpp.diagnostics());
        EXPECT_NE(cpp->source.find("rt::globalPoolChannelsLast(rt::inMemoryOrder(y0)"),
                  std::string::npos);
        if (strategy == Strategy::PerOp) { // fuse-max may fold the scaling into a convolution
            EXPECT_NE(cpp->source.find("rt::zip(rt::inMemoryOrder(y0)"), std::string::npos);
        }
        expectMatchesReference(*m->graph, p);
    }
}

// Ops strata_rt has no kernel for (Hardmax; comparisons, Cast and CumSum on integers) and a use
// it does not cover (a 1-D convolution) run in generated code on the reference evaluator's
// kernels, which the file then carries (only their families): fused and cut into tiles by a
// small working memory.
TEST(CppEmitter, OpsWithoutAKernelRunOnTheReference) {
    auto m = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2, 4, 40] X, float[3, 4, 3] W) => (float[2, 4, 40] Y, float[2, 3, 38] Z) <float[1] zero = {0.25}, int64[1] axis = {2}> {
    c = Greater (X, zero)
    n = Neg (X)
    w = Where (c, X, n)
    i = Cast <to = 7> (c)
    k = CumSum (i, axis)
    f = Cast <to = 1> (k)
    h = Hardmax <axis = 2> (w)
    Y = Add (h, f)
    Z = Conv (X, W)
}
)");
    ASSERT_TRUE(m) << joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    // Fused and cut into tiles (one build: the evaluator's kernels make it a slow one).
    target::Target small = presetTarget("host");
    for (auto& memory : small.memories)
        if (memory.name == small.workingMemory)
            memory.capacityBytes = 16 * 1024;
    const auto program = compileWith(g, small, Strategy::FuseMax);
    auto cpp = compiler::emitCpp(program, g);
    ASSERT_TRUE(cpp) << joined(cpp.diagnostics());
    for (const char* op : {"\"Hardmax\"", "\"CumSum\"", "\"Greater\"", "\"Cast\"", "\"Conv\""})
        EXPECT_NE(cpp->source.find(std::string("rt::referenceOp(") + op), std::string::npos) << op;
    // Only what they use: no family no op needs, no kernel no op needs (Abs: elementwise too).
    EXPECT_NE(cpp->source.find("KernelsResize.cpp: no op of this program needs it"),
              std::string::npos);
    EXPECT_NE(cpp->source.find("{\"Greater\", "), std::string::npos);
    EXPECT_EQ(cpp->source.find("{\"Abs\", "), std::string::npos);
    expectMatchesReference(g, program);
}

// A file with no such op carries strata_rt only.
TEST(CppEmitter, CarriesTheReferenceOnlyWhenItRunsSomeOpOnIt) {
    auto g = sampleGraph("resnet_tiny.onnx");
    auto cpp = compiler::emitCpp(compileWith(*g, presetTarget("host"), Strategy::Rules), *g);
    ASSERT_TRUE(cpp) << joined(cpp.diagnostics());
    EXPECT_EQ(cpp->source.find("computeRegion"), std::string::npos);
    EXPECT_EQ(cpp->source.find("referenceProgram"), std::string::npos);
}

} // namespace
} // namespace strata::test
