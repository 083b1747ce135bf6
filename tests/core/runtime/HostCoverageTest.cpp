// What real models need beyond the classic CNN kernels: Split, Resize, Where, Expand and
// trailing-dim reductions get kernels of their own, and ops strata_rt has no kernel for run
// through the reference evaluator's per-region kernel (runtime/ReferenceFallback.h). Compiled
// with every strategy, on the host and on a target whose small working memory cuts them into
// tiles, each reproduces the reference evaluation; an op nothing can run is refused by compile,
// naming the op and the reason.

#include "compiler/Pipeline.h"
#include "compiler/emit/KernelCall.h"
#include "reference/Compare.h"
#include "reference/Evaluator.h"
#include "runtime/Runtime.h"
#include "schedule/Strategies.h"
#include "support/TestModels.h"
#include "target/TargetLoader.h"

#include <gtest/gtest.h>

namespace strata::test {
namespace {

// The host with `scratchBytes` of working memory per core, so tiles hold regions, not tensors.
target::Target hostWithScratch(std::uint64_t scratchBytes) {
    auto host = target::resolveTarget("host");
    EXPECT_TRUE(host) << joined(host.diagnostics());
    target::Target t = *host;
    for (auto& m : t.memories)
        if (m.name == t.workingMemory)
            m.capacityBytes = scratchBytes;
    return t;
}

std::size_t computesWith(compiler::Kernel kernel, const compiler::Program& program,
                         const ir::Graph& g) {
    std::size_t n = 0;
    for (const compiler::Instruction& in : program.instructions)
        if (const auto* c = std::get_if<compiler::Compute>(&in.body)) {
            auto call = compiler::lowerCompute(g, g.op(in.from.op), *c);
            if (call && call->kernel == kernel)
                ++n;
        }
    return n;
}

// Compiles `text` with every strategy on the host and on a small-scratch host, runs it and
// compares with the reference evaluator; every program must lower some compute to `kernel`.
void expectMatchesReference(const std::string& text,
                            compiler::Kernel kernel = compiler::Kernel::Reference) {
    auto m = importText(text);
    ASSERT_TRUE(m) << joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    const auto inputs = reference::sampleInputs(g, 7);
    auto expected = reference::evaluate(g, inputs);
    ASSERT_TRUE(expected) << joined(expected.diagnostics());
    auto host = target::resolveTarget("host");
    ASSERT_TRUE(host);
    for (const target::Target& target : {*host, hostWithScratch(16 * 1024)}) {
        for (auto strategy :
             {schedule::Strategy::PerOp, schedule::Strategy::FuseMax, schedule::Strategy::Rules}) {
            SCOPED_TRACE(target.name + " " + std::string(schedule::strategyName(strategy)) +
                         " scratch " +
                         std::to_string(target.findMemory(target.workingMemory)->capacityBytes));
            auto compiled =
                compiler::compile(g, target, schedule::makeSchedule(g, target, strategy));
            ASSERT_TRUE(compiled) << joined(compiled.diagnostics());
            EXPECT_GT(computesWith(kernel, compiled->program, g), 0u);
            auto result = runtime::run(compiled->program, target, g, inputs);
            ASSERT_TRUE(result) << joined(result.diagnostics());
            ASSERT_EQ(result->outputs.size(), expected->size());
            for (std::size_t i = 0; i < expected->size(); ++i) {
                auto c = reference::compare(result->outputs[i], (*expected)[i], 1e-5, 1e-4);
                EXPECT_TRUE(c.ok) << g.value(g.outputs[i]).name << ": " << c.message;
            }
        }
    }
}

// A fused QKV projection split three ways (a multi-output op, strata_rt's Split: a slice per
// output), then attention-like arithmetic; and the same split into unequal parts of an int64
// tensor, which only moves elements.
TEST(HostKernels, SplitOfAFusedProjection) {
    expectMatchesReference(
        "<ir_version: 8, opset_import: [\"\" : 17]>\n"
        "g (float[1, 32, 48] x) => (float[1, 32, 16] y) <int64[3] parts = {16, 16, 16}> {\n"
        "    q, k, v = Split <axis = 2> (x, parts)\n"
        "    qk = Mul (q, k)\n"
        "    y = Add (qk, v)\n}\n",
        compiler::Kernel::Split);
    expectMatchesReference(
        "<ir_version: 8, opset_import: [\"\" : 17]>\n"
        "g (float[40, 30] x) => (float[40, 6] a, float[40, 24] b) <int64[2] parts = {6, 24}> {\n"
        "    s, t = Split <axis = 1> (x, parts)\n"
        "    a = Relu (s)\n"
        "    b = Neg (t)\n}\n",
        compiler::Kernel::Split);
}

// Upsampling as torch and TF export it, between fast kernels: every mode with the coordinate
// modes they use, by scales and by sizes.
TEST(HostKernels, ResizeInEveryExportedMode) {
    const char* modes[][3] = {
        {"nearest", "asymmetric", "floor"},
        {"nearest", "half_pixel", "round_prefer_floor"},
        {"nearest", "tf_half_pixel_for_nn", "round_prefer_ceil"},
        {"linear", "half_pixel", ""},
        {"linear", "pytorch_half_pixel", ""},
        {"linear", "align_corners", ""},
        {"linear", "asymmetric", ""},
        {"cubic", "half_pixel", ""},
        {"cubic", "align_corners", ""},
    };
    for (const auto& [mode, transform, nearest] : modes) {
        SCOPED_TRACE(std::string(mode) + " " + transform);
        const std::string attrs =
            std::string("<mode = \"") + mode + "\", coordinate_transformation_mode = \"" +
            transform + "\"" +
            (*nearest ? std::string(", nearest_mode = \"") + nearest + "\"" : "") + ">";
        expectMatchesReference("<ir_version: 8, opset_import: [\"\" : 17]>\n"
                               "g (float[1, 4, 24, 20] x) => (float[1, 4, 48, 50] y) <float[4] "
                               "scales = {1, 1, 2, 2.5}> {\n"
                               "    r = Relu (x)\n"
                               "    u = Resize " +
                                   attrs +
                                   " (r, , scales)\n"
                                   "    y = Sigmoid (u)\n}\n",
                               compiler::Kernel::Resize);
        expectMatchesReference("<ir_version: 8, opset_import: [\"\" : 17]>\n"
                               "g (float[1, 3, 17, 13] x) => (float[1, 3, 8, 30] y) <int64[4] "
                               "sizes = {1, 3, 8, 30}> {\n"
                               "    y = Resize " +
                                   attrs + " (x, , , sizes)\n}\n",
                               compiler::Kernel::Resize);
    }
}

// An attention mask as GPT-style exports build it: Where over a boolean mask broadcast against
// the scores, and a class token Expanded over the batch.
TEST(HostKernels, WhereAndExpand) {
    expectMatchesReference(
        "<ir_version: 8, opset_import: [\"\" : 17]>\n"
        "g (float[2, 4, 16, 16] s, bool[1, 1, 16, 16] m) => (float[2, 4, 16, 16] y) "
        "<float[1] low = {-10000}> {\n"
        "    y = Where (m, s, low)\n}\n",
        compiler::Kernel::Where);
    expectMatchesReference("<ir_version: 8, opset_import: [\"\" : 17]>\n"
                           "g (float[1, 1, 24] t, float[3, 20, 24] x) => (float[3, 20, 24] y) "
                           "<int64[3] shape = {3, 20, 24}> {\n"
                           "    e = Expand (t, shape)\n"
                           "    y = Add (e, x)\n}\n",
                           compiler::Kernel::Map);
}

// Reductions over planes (global average pooling written as ReduceMean) and over rows.
TEST(HostKernels, ReductionsOverPlanesAndRows) {
    expectMatchesReference(
        "<ir_version: 8, opset_import: [\"\" : 17]>\n"
        "g (float[2, 8, 14, 14] x) => (float[2, 8, 1, 1] y, float[2, 8, 14] z) {\n"
        "    r = Relu (x)\n"
        "    y = ReduceMean <axes = [2, 3], keepdims = 1> (r)\n"
        "    z = ReduceMax <axes = [-1], keepdims = 0> (r)\n}\n",
        compiler::Kernel::Reduce);
    expectMatchesReference("<ir_version: 8, opset_import: [\"\" : 17]>\n"
                           "g (float[4, 30, 64] x) => (float[4, 30, 1] y) <int64[1] axes = {2}> {\n"
                           "    y = ReduceSum <keepdims = 1> (x, axes)\n}\n",
                           compiler::Kernel::Reduce);
}

// Ops with integer and boolean operands (no float32-only strata_rt kernel applies).
TEST(ReferenceFallback, ComparisonCastAndCumSum) {
    expectMatchesReference("<ir_version: 8, opset_import: [\"\" : 17]>\n"
                           "g (float[2, 12, 20] x) => (float[2, 12, 20] y) <float[1] zero = "
                           "{0.25}, int64[1] axis = {2}> {\n"
                           "    c = Greater (x, zero)\n"
                           "    n = Neg (x)\n"
                           "    w = Where (c, x, n)\n"
                           "    i = Cast <to = 7> (c)\n"
                           "    k = CumSum (i, axis)\n"
                           "    f = Cast <to = 1> (k)\n"
                           "    y = Add (w, f)\n}\n");
}

// An op neither strata_rt nor the reference evaluator computes is refused when compiling, with
// its name and the reason, before any tile exists.
TEST(ReferenceFallback, CompileRefusesWhatNothingCanRun) {
    ir::Graph g;
    g.name = "refused";
    for (const char* name : {"x", "y"}) {
        ir::Value v;
        v.name = name;
        v.dtype = ir::DType::Float32;
        v.shape = {2, 3};
        g.values.push_back(v);
    }
    ir::Op op;
    op.type = "Frobnicate";
    op.name = "frob_1";
    op.inputs = {ir::ValueId(0)};
    op.outputs = {ir::ValueId(1)};
    g.ops.push_back(op);
    g.inputs = {ir::ValueId(0)};
    g.outputs = {ir::ValueId(1)};
    g.finalize();
    EXPECT_NE(compiler::runtimeRefusal(g, g.ops[0]).find("Frobnicate 'frob_1'"), std::string::npos);
    auto target = target::resolveTarget("host");
    ASSERT_TRUE(target);
    auto compiled = compiler::compile(
        g, *target, schedule::makeSchedule(g, *target, schedule::Strategy::PerOp));
    ASSERT_FALSE(compiled);
    EXPECT_TRUE(mentions(compiled.diagnostics(), "Frobnicate 'frob_1'"))
        << joined(compiled.diagnostics());
    EXPECT_TRUE(mentions(compiled.diagnostics(), "not supported"))
        << joined(compiled.diagnostics());
}

} // namespace
} // namespace strata::test
