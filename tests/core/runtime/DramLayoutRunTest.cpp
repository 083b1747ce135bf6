// Channels-last tensors in main memory (tiling/DramLayouts.h) end to end: per-op programs
// whose intermediates live channels-last load and store them so, with reorders left only where a
// graph input or output or a row-major reader (a pool) meets them; the verifier refuses a store
// of a box in another layout than its transfer's; and the host runs every strategy's program to
// the reference evaluator's result.

#include "RunMatchesReference.h"
#include "TwoCoreTarget.h"
#include "compiler/Pipeline.h"
#include "compiler/emit/AsmEmitter.h"
#include "compiler/passes/Verify.h"
#include "schedule/Strategies.h"
#include "support/TestModels.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <set>

namespace strata::test {
namespace {

target::Target hostLike() {
    target::Target t = twoCoreTarget("hostlike", 256 * 1024);
    t.channelGranule = 16;
    return t;
}

// X[1, 16, 12, 12] -> A = Conv 3x3 -> E = Relu -> Y = Conv 3x3 -> S = Add(Y, E) -> T = Conv 1x1
// -> Z = Relu (the graph's output); with `pooled`, also D = MaxPool(S) and Z = Relu(T) + D.
std::shared_ptr<const ir::Graph> residualChain(bool pooled) {
    const std::string text = fmt::format(
        "<ir_version: 8, opset_import: [\"\" : 17]>\n"
        "g (float[1, 16, 12, 12] X) => (float[1, 16, 12, 12] Z)\n"
        "<float[16, 16, 3, 3] W = {{{}}}, float[16] B = {{{}}}, float[16, 16, 1, 1] P = {{{}}}> "
        "{{\n"
        "    A = Conv <pads = [1, 1, 1, 1]> (X, W, B)\n"
        "    E = Relu (A)\n"
        "    Y = Conv <pads = [1, 1, 1, 1]> (E, W)\n"
        "    S = Add (Y, E)\n"
        "    T = Conv (S, P)\n"
        "{}"
        "}}\n",
        patternValues(16 * 16 * 9, 0.02f), patternValues(16, 0.05f), patternValues(16 * 16, 0.05f),
        pooled ? "    R = Relu (T)\n"
                 "    D = MaxPool <kernel_shape = [3, 3], pads = [1, 1, 1, 1]> (S)\n"
                 "    Z = Add (R, D)\n"
               : "    Z = Relu (T)\n");
    auto m = importText(text);
    EXPECT_TRUE(m) << joined(m.diagnostics()) << "\n" << text;
    return m ? m->graph : nullptr;
}

compiler::Program compiled(const ir::Graph& g, const target::Target& t, schedule::Strategy s) {
    auto c = compiler::compile(g, t, schedule::makeSchedule(g, t, s, {.mp = 2, .buffering = 1}));
    EXPECT_TRUE(c) << joined(c.diagnostics());
    return c ? std::move(c->program) : compiler::Program{};
}

std::string nameOf(const ir::Graph& g, ir::ValueId v) {
    return g.value(v).name;
}

// The values whose boxes some reorder rewrites.
std::set<std::string> reordered(const compiler::Program& p, const ir::Graph& g) {
    std::set<std::string> out;
    for (const compiler::Instruction& in : p.instructions)
        if (const auto* c = std::get_if<compiler::Compute>(&in.body); c && c->isReorder())
            out.insert(nameOf(g, c->inputs[0].value));
    return out;
}

TEST(DramLayouts, PerOpIntermediatesMoveChannelsLastWithNoReorder) {
    auto g = residualChain(false);
    ASSERT_TRUE(g);
    const target::Target t = hostLike();
    const compiler::Program p = compiled(*g, t, schedule::Strategy::PerOp);
    ASSERT_FALSE(p.instructions.empty());
    for (const compiler::DramBuffer& b : p.dram) {
        const std::string name = nameOf(*g, b.value);
        // T: its writer (a pointwise convolution of S) lays it out row-major for its reader at
        // the cost of a reorder for Z's store: a tie, which row-major takes.
        const bool between = name == "A" || name == "E" || name == "Y" || name == "S";
        EXPECT_EQ(b.layout, between ? compiler::kChannelsLast : 0) << name;
    }
    // Every transfer of an intermediate moves a channels-last box, one position's channels a row.
    std::size_t channelsLast = 0;
    for (const compiler::Instruction& in : p.instructions)
        if (const auto* tr = std::get_if<compiler::Transfer>(&in.body)) {
            const compiler::DramBuffer* home = p.dramOf(tr->value);
            ASSERT_NE(home, nullptr);
            EXPECT_EQ(tr->channelBlock, home->layout) << nameOf(*g, tr->value);
            if (tr->channelBlock == compiler::kChannelsLast) {
                ++channelsLast;
                EXPECT_EQ(tr->source.strides.back(), 1);
                EXPECT_EQ(tr->source.shape.back(), tr->region[1].size());
            }
        }
    EXPECT_GT(channelsLast, 0u);
    // The input's boxes for the first convolution: nothing else.
    EXPECT_EQ(reordered(p, *g), (std::set<std::string>{"X"}));
    const std::string listing = compiler::emitAssembly(p, *g);
    EXPECT_NE(listing.find("intermediate A nhwc"), std::string::npos) << listing;
    EXPECT_NE(listing.find("] nhwc  ; load E"), std::string::npos) << listing;
}

// A pool reads row-major: S (channels-last for its writer, the residual Add, and its other reader,
// a pointwise convolution) is reordered after its load for it.
TEST(DramLayouts, ARowMajorReaderGetsAReorderAtItsLoad) {
    auto g = residualChain(true);
    ASSERT_TRUE(g);
    const target::Target t = hostLike();
    const compiler::Program p = compiled(*g, t, schedule::Strategy::PerOp);
    ASSERT_FALSE(p.instructions.empty());
    ASSERT_EQ(p.dramOf(g->outputs[0])->layout, 0);
    for (const compiler::DramBuffer& b : p.dram) {
        if (nameOf(*g, b.value) == "S") {
            EXPECT_EQ(b.layout, compiler::kChannelsLast);
        }
    }
    EXPECT_TRUE(reordered(p, *g).count("S"));
    for (const compiler::Instruction& in : p.instructions) {
        if (const auto* c = std::get_if<compiler::Compute>(&in.body); c && c->opType == "MaxPool") {
            EXPECT_EQ(c->inputs[0].channelBlock, 0);
        }
    }
    expectRunMatchesReference(p, t, *g);
}

TEST(DramLayouts, VerifierRefusesAStoreOfABoxInAnotherLayout) {
    auto g = residualChain(false);
    ASSERT_TRUE(g);
    const target::Target t = hostLike();
    compiler::Program p = compiled(*g, t, schedule::Strategy::PerOp);
    ASSERT_TRUE(compiler::verifyProgram(p, *g, t).empty());
    bool changed = false;
    for (compiler::Instruction& in : p.instructions)
        if (auto* tr = std::get_if<compiler::Transfer>(&in.body);
            tr && tr->source.memory == p.workingMemory && tr->channelBlock != 0) {
            tr->channelBlock = 0;
            changed = true;
            break;
        }
    ASSERT_TRUE(changed);
    const auto found = compiler::verifyProgram(p, *g, t);
    EXPECT_TRUE(mentions(found, "moves")) << joined(found);
}

TEST(DramLayouts, EveryStrategyRunsToTheReference) {
    const target::Target t = hostLike();
    for (bool pooled : {false, true}) {
        auto g = residualChain(pooled);
        ASSERT_TRUE(g);
        for (schedule::Strategy s :
             {schedule::Strategy::PerOp, schedule::Strategy::Rules, schedule::Strategy::FuseMax}) {
            SCOPED_TRACE(fmt::format("pooled {}, strategy {}", pooled, static_cast<int>(s)));
            expectRunMatchesReference(compiled(*g, t, s), t, *g);
        }
    }
}

// X[1, 32, 12, 12] -> D = depthwise Conv 3x3 -> E = D * Sigmoid(D) -> P = GlobalAveragePool(E)
// -> F = Conv 1x1 -> G = Relu -> H = Conv 1x1 -> S = Sigmoid -> M = S * E (a [1, 32, 1, 1] scale)
// -> Z = Conv 1x1 (EfficientNet's squeeze-excite, scale first as torchvision writes it).
std::shared_ptr<const ir::Graph> squeezeExcite() {
    const std::string text =
        fmt::format("<ir_version: 8, opset_import: [\"\" : 17]>\n"
                    "g (float[1, 32, 12, 12] X) => (float[1, 16, 12, 12] Z)\n"
                    "<float[32, 1, 3, 3] K = {{{}}}, float[8, 32, 1, 1] R = {{{}}}, "
                    "float[32, 8, 1, 1] U = {{{}}}, float[16, 32, 1, 1] Q = {{{}}}> {{\n"
                    "    D = Conv <pads = [1, 1, 1, 1], group = 32> (X, K)\n"
                    "    A = Sigmoid (D)\n"
                    "    E = Mul (D, A)\n"
                    "    P = GlobalAveragePool (E)\n"
                    "    F = Conv (P, R)\n"
                    "    G = Relu (F)\n"
                    "    H = Conv (G, U)\n"
                    "    S = Sigmoid (H)\n"
                    "    M = Mul (S, E)\n"
                    "    Z = Conv (M, Q)\n"
                    "}}\n",
                    patternValues(32 * 9, 0.1f), patternValues(8 * 32, 0.1f),
                    patternValues(32 * 8, 0.1f), patternValues(16 * 32, 0.05f));
    auto m = importText(text);
    EXPECT_TRUE(m) << joined(m.diagnostics()) << "\n" << text;
    return m ? m->graph : nullptr;
}

// The pool and the scaling multiply read E channels-last, so per op nothing of E, S or M is
// reordered (D is, after the depthwise convolution of the row-major graph input); the multiply's
// scale is read as it lies (one position: the same bytes either way); and the elementwise blocks of
// channels-last tensors are cut into rows, not channels.
TEST(DramLayouts, ASqueezeExciteRunsChannelsLastWithNoReorder) {
    auto g = squeezeExcite();
    ASSERT_TRUE(g);
    const target::Target t = hostLike();
    const compiler::Program p = compiled(*g, t, schedule::Strategy::PerOp);
    ASSERT_FALSE(p.instructions.empty());
    const std::set<std::string> reorders = reordered(p, *g);
    for (const char* v : {"E", "M", "S"})
        EXPECT_FALSE(reorders.count(v)) << v;
    int pools = 0, scales = 0, sigmoids = 0;
    for (const compiler::Instruction& in : p.instructions) {
        const auto* c = std::get_if<compiler::Compute>(&in.body);
        if (!c)
            continue;
        const std::string out = nameOf(*g, c->outputs[0].value);
        if (c->opType == "GlobalAveragePool") {
            ++pools;
            EXPECT_EQ(c->inputs[0].channelBlock, compiler::kChannelsLast);
        }
        if (out == "M") {
            ++scales;
            EXPECT_EQ(c->inputs[1].channelBlock, compiler::kChannelsLast);
            EXPECT_EQ(c->outputs[0].channelBlock, compiler::kChannelsLast);
        }
        if (out == "A") {
            ++sigmoids;
            EXPECT_EQ(c->outputs[0].region[1].size(), 32) << "a tile of whole positions";
            EXPECT_LT(c->outputs[0].region[2].size(), 12) << "cut into rows";
        }
    }
    EXPECT_GT(pools, 0);
    EXPECT_GT(scales, 0);
    EXPECT_GT(sigmoids, 0);
    expectRunMatchesReference(p, t, *g);
}

TEST(DramLayouts, ASqueezeExciteRunsToTheReferenceWithEveryStrategy) {
    auto g = squeezeExcite();
    ASSERT_TRUE(g);
    const target::Target t = hostLike();
    for (schedule::Strategy s :
         {schedule::Strategy::PerOp, schedule::Strategy::Rules, schedule::Strategy::FuseMax}) {
        SCOPED_TRACE(fmt::format("strategy {}", static_cast<int>(s)));
        expectRunMatchesReference(compiled(*g, t, s), t, *g);
    }
}

} // namespace
} // namespace strata::test
