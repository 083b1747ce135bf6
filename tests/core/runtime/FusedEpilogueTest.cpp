// Fused epilogues (compiler/passes/FuseEpilogues.h) end to end: a convolution followed by
// elementwise ops, then a 3x3 convolution that makes every tile of the first one carry a halo,
// compiled in odd row tiles on two cores. Every combination of convolution (window, stride,
// dilation, groups, depthwise, 1x1) and epilogue (activations oneDNN has post-ops for, a residual
// add as the sum post-op before or after an activation, steps only the generic path runs) must
// be fused into the convolution's compute and the host run must match the reference evaluation
// of the unfused graph. The pass's rules: nothing is fused where the intermediate has another
// reader or is a block output; and the verifier refuses a broken epilogue.

#include "RunMatchesReference.h"
#include "TwoCoreTarget.h"
#include "compiler/Pipeline.h"
#include "compiler/passes/Verify.h"
#include "emulator/Emulator.h"
#include "reference/Compare.h"
#include "reference/Evaluator.h"
#include "runtime/Runtime.h"
#include "schedule/Edits.h"
#include "schedule/Strategies.h"
#include "support/TestModels.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace strata::test {
namespace {

// Two cores with 256 KiB of working memory each.
target::Target hostLike() {
    return twoCoreTarget("hostlike", 256 * 1024);
}

struct Conv {
    const char* name;
    int channels, outputs, kernel, stride, pad, dilation, group;
};

struct Epilogue {
    const char* name;
    // The ops after C = Conv(...), in ONNX text, ending in E; R is a residual input of C's shape
    // and S a per-channel constant [M, 1, 1].
    const char* ops;
    std::size_t steps; // how many of them the convolution's compute takes
};

struct Case {
    Conv conv;
    Epilogue epilogue;
};

constexpr int kSize = 15; // odd rows and columns

std::int64_t outSize(const Conv& c) {
    return (kSize + 2 * c.pad - c.dilation * (c.kernel - 1) - 1) / c.stride + 1;
}

// X -> Conv -> the epilogue -> Conv 3x3 pad 1 (to 4 channels) -> Y.
std::shared_ptr<const ir::Graph> graphFor(const Case& p) {
    const Conv& c = p.conv;
    const std::int64_t o = outSize(c);
    const std::string text = fmt::format(
        "<ir_version: 8, opset_import: [\"\" : 17]>\n"
        "g (float[1, {0}, {2}, {2}] X, float[1, {1}, {3}, {3}] R) => (float[1, 4, {3}, {3}] Y)\n"
        "<float[{1}, {4}, {5}, {5}] W = {{{6}}}, float[{1}] B = {{{7}}}, float[{1}, 1, 1] S = "
        "{{{8}}},\n"
        " float[4, {1}, 3, 3] W2 = {{{9}}}> {{\n"
        "    C = Conv <pads = [{10}, {10}, {10}, {10}], strides = [{11}, {11}], dilations = [{12}, "
        "{12}], "
        "group = {13}> (X, W, B)\n"
        "    {14}\n"
        "    Y = Conv <pads = [1, 1, 1, 1]> (E, W2)\n"
        "}}\n",
        c.channels, c.outputs, kSize, o, c.channels / c.group, c.kernel,
        patternValues(std::int64_t{c.outputs} * (c.channels / c.group) * c.kernel * c.kernel,
                      0.02f),
        patternValues(c.outputs, 0.05f), patternValues(c.outputs, 0.1f),
        patternValues(4 * std::int64_t{c.outputs} * 9, 0.02f), c.pad, c.stride, c.dilation, c.group,
        p.epilogue.ops);
    auto m = importText(text);
    EXPECT_TRUE(m) << joined(m.diagnostics()) << "\n" << text;
    return m ? m->graph : nullptr;
}

// One block of every op, on both cores, in tiles of 5 output rows (odd, and the first conv's
// tiles then hold halo rows).
schedule::Schedule fusedInRowTiles(const ir::Graph& g, const target::Target& t) {
    schedule::Schedule s =
        schedule::makeSchedule(g, t, schedule::Strategy::FuseMax, {.mp = 2, .buffering = 1});
    EXPECT_EQ(s.blocks.size(), 1u);
    ir::Shape tile = g.value(g.outputs[0]).shape;
    tile[2] = 5;
    auto edited = schedule::setTile(s, g, s.blocks.front().id, schedule::TileSpec{tile});
    EXPECT_TRUE(edited) << joined(edited.diagnostics());
    return edited ? std::move(edited).value() : s;
}

// The most steps any compute of the program took.
std::size_t longestEpilogue(const compiler::Program& p) {
    std::size_t n = 0;
    for (const compiler::Instruction& in : p.instructions)
        if (const auto* c = std::get_if<compiler::Compute>(&in.body))
            n = std::max(n, c->epilogue.size());
    return n;
}

class FusedEpilogue : public ::testing::TestWithParam<Case> {};

TEST_P(FusedEpilogue, IsFusedAndMatchesTheReference) {
    auto g = graphFor(GetParam());
    ASSERT_TRUE(g);
    const target::Target t = hostLike();
    auto compiled = compiler::compile(*g, t, fusedInRowTiles(*g, t));
    ASSERT_TRUE(compiled) << joined(compiled.diagnostics());
    EXPECT_EQ(longestEpilogue(compiled->program), GetParam().epilogue.steps);
    test::expectRunMatchesReference(compiled->program, t, *g);
}

const Conv kConvs[] = {
    {"window3x3", 8, 16, 3, 1, 1, 1, 1},     {"stride2", 8, 16, 3, 2, 1, 1, 1},
    {"dilation2", 8, 16, 3, 1, 2, 2, 1},     {"groups2", 8, 16, 3, 1, 1, 1, 2},
    {"depthwise", 8, 8, 3, 1, 1, 1, 8},      {"pointwise", 8, 16, 1, 1, 0, 1, 1},
    {"oddChannels5x5", 5, 7, 5, 1, 2, 1, 1},
};

const Epilogue kEpilogues[] = {
    {"relu", "E = Relu (C)", 1},
    {"addRelu", "A = Add (C, R)\n    E = Relu (A)", 2},
    {"reluAdd", "A = Relu (C)\n    E = Add (R, A)", 2},
    {"clip",
     "Lo = Constant <value = float {0.0}> ()\n    Hi = Constant <value = float {0.5}> ()\n    E = "
     "Clip (C, Lo, Hi)",
     1},
    {"hardSwish", "E = HardSwish (C)", 1},
    {"sigmoid", "E = Sigmoid (C)", 1},
    {"leakyRelu", "E = LeakyRelu <alpha = 0.2> (C)", 1},
    {"hardSigmoid", "E = HardSigmoid (C)", 1},
    {"channelScaleThenTanh", "A = Mul (C, S)\n    E = Tanh (A)", 2},
    {"residualMinusConv", "A = Sub (R, C)\n    E = Elu (A)", 2},
    // SiLU, x * sigmoid(x), in either operand order: its Sigmoid and Mul are one step.
    {"silu", "G = Sigmoid (C)\n    E = Mul (C, G)", 1},
    {"siluSigmoidFirst", "G = Sigmoid (C)\n    E = Mul (G, C)", 1},
    {"channelScaleThenSilu", "A = Mul (C, S)\n    G = Sigmoid (A)\n    E = Mul (A, G)", 2},
    {"siluThenResidual", "G = Sigmoid (C)\n    A = Mul (C, G)\n    E = Add (A, R)", 2},
};

std::vector<Case> allCases() {
    std::vector<Case> out;
    for (const Conv& c : kConvs)
        for (const Epilogue& e : kEpilogues)
            out.push_back({c, e});
    return out;
}

INSTANTIATE_TEST_SUITE_P(Combinations, FusedEpilogue, ::testing::ValuesIn(allCases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                             return std::string(info.param.conv.name) + "_" +
                                    info.param.epilogue.name;
                         });

// X[1,4,9,9] -> C = Conv 3x3 pad 1 (constant weights), then `rest` (ONNX text lines making Y).
Expected<model::ImportedModel> convThen(const std::string& rest) {
    return importText("<ir_version: 8, opset_import: [\"\" : 17]>\n"
                      "g (float[1, 4, 9, 9] X) => (float[1, 4, 9, 9] Y) <float[4, 4, 3, 3] W = {" +
                      patternValues(144, 0.02f) +
                      "}> {\n    C = Conv <pads = [1, 1, 1, 1]> (X, W)\n" + rest + "}\n");
}

// The intermediate has a second reader: nothing is fused, and the Relu stays an instruction.
TEST(FuseEpiloguesRules, NotFusedWhenTheIntermediateHasAnotherReader) {
    auto m = convThen("    E = Relu (C)\n    Y = Add (E, C)\n");
    ASSERT_TRUE(m) << joined(m.diagnostics());
    const target::Target t = hostLike();
    auto compiled = compiler::compile(
        *m->graph, t, schedule::makeSchedule(*m->graph, t, schedule::Strategy::FuseMax));
    ASSERT_TRUE(compiled) << joined(compiled.diagnostics());
    EXPECT_EQ(longestEpilogue(compiled->program), 0u);
    std::size_t relus = 0;
    for (const compiler::Instruction& in : compiled->program.instructions)
        if (const auto* c = std::get_if<compiler::Compute>(&in.body))
            relus += c->opType == "Relu";
    EXPECT_GT(relus, 0u);
}

// x * sigmoid(x) whose Sigmoid has a reader besides the Mul is no SiLU step: nothing is fused.
TEST(FuseEpiloguesRules, NoSiluWhenTheSigmoidHasAnotherReader) {
    auto m = convThen("    G = Sigmoid (C)\n    M = Mul (C, G)\n    Y = Add (M, G)\n");
    ASSERT_TRUE(m) << joined(m.diagnostics());
    const target::Target t = hostLike();
    auto compiled = compiler::compile(
        *m->graph, t, schedule::makeSchedule(*m->graph, t, schedule::Strategy::FuseMax));
    ASSERT_TRUE(compiled) << joined(compiled.diagnostics());
    EXPECT_EQ(longestEpilogue(compiled->program), 0u);
}

// The intermediate is a block output (per-op blocks store it for the next block): not fused.
// In one block it is fused, and the listing and JSON show it.
TEST(FuseEpiloguesRules, NotFusedAcrossBlocksButShownWhenFused) {
    auto m = convThen("    Y = Relu (C)\n");
    ASSERT_TRUE(m) << joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    const target::Target t = hostLike();
    auto perOp = compiler::compile(g, t, schedule::makeSchedule(g, t, schedule::Strategy::PerOp));
    ASSERT_TRUE(perOp) << joined(perOp.diagnostics());
    EXPECT_EQ(longestEpilogue(perOp->program), 0u);

    auto fused = compiler::compile(g, t, schedule::makeSchedule(g, t, schedule::Strategy::FuseMax));
    ASSERT_TRUE(fused) << joined(fused.diagnostics());
    const compiler::Compute* conv = nullptr;
    for (const compiler::Instruction& in : fused->program.instructions)
        if (const auto* c = std::get_if<compiler::Compute>(&in.body); c && !c->epilogue.empty())
            conv = c;
    ASSERT_NE(conv, nullptr);
    EXPECT_EQ(conv->opType, "Conv");
    ASSERT_EQ(conv->epilogue.size(), 1u);
    EXPECT_EQ(g.op(conv->epilogue[0].op).type, "Relu");
    EXPECT_EQ(conv->outputs[0].value, g.outputs[0]);
}

// The verifier refuses an epilogue step that does not read the compute's result, and one whose
// box is what the compute reads.
TEST(FuseEpiloguesRules, VerifierRefusesBrokenEpilogues) {
    auto m = convThen("    Y = Relu (C)\n");
    ASSERT_TRUE(m) << joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    const target::Target t = hostLike();
    auto fused = compiler::compile(g, t, schedule::makeSchedule(g, t, schedule::Strategy::FuseMax));
    ASSERT_TRUE(fused) << joined(fused.diagnostics());
    auto broken = [&](auto edit) {
        compiler::Program p = fused->program;
        for (compiler::Instruction& in : p.instructions)
            if (auto* c = std::get_if<compiler::Compute>(&in.body); c && !c->epilogue.empty()) {
                edit(*c);
                break;
            }
        return compiler::verifyProgram(p, g, t);
    };
    auto wrongInput = broken([&](compiler::Compute& c) { c.epilogue[0].input = g.inputs[0]; });
    EXPECT_TRUE(mentions(wrongInput, "does not read the previous step's output"))
        << joined(wrongInput);
    auto overInput =
        broken([&](compiler::Compute& c) { c.outputs[0].offset = c.inputs[0].offset; });
    EXPECT_TRUE(mentions(overInput, "writes over")) << joined(overInput);
}

} // namespace
} // namespace strata::test
