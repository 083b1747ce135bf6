// The host's Einsum on sgemm (runtime/EinsumKernel.h) against the reference evaluator, on tiles:
// the output box is a random region, each operand box what bounds inference says the region
// reads (or a larger box around it); contractions that are not a batch of matrix products are
// refused so the reference runs them. End to end, compiled programs with Einsum reproduce the
// reference evaluation with every strategy, whole and cut into tiles.

#include "runtime/EinsumKernel.h"

#include "compiler/Pipeline.h"
#include "reference/Compare.h"
#include "reference/Evaluator.h"
#include "runtime/Runtime.h"
#include "schedule/Strategies.h"
#include "support/TestModels.h"
#include "target/TargetLoader.h"
#include "tiling/Region.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <random>

namespace strata::test {
namespace {

namespace rt = strata_rt;

std::string einsumModel(const std::string& signature, const std::string& equation,
                        const std::string& operands) {
    return "<ir_version: 8, opset_import: [\"\" : 17]>\ng " + signature + " {\n    Y = Einsum " +
           "<equation = \"" + equation + "\"> (" + operands + ")\n}\n";
}

// A box of `whole` at `region`, stored row-major, and its view.
struct OperandBox {
    std::vector<float> data;
    rt::View<unsigned char> view;

    OperandBox(const reference::Tensor& whole, const tiling::Region& region) {
        view.rank = static_cast<int>(region.size());
        std::int64_t n = 1;
        for (std::size_t d = region.size(); d-- > 0;) {
            view.full[d] = whole.shape[d];
            view.lo[d] = region[d].begin;
            view.ext[d] = region[d].size();
            view.stride[d] = n;
            n *= region[d].size();
        }
        data.resize(static_cast<std::size_t>(n));
        const auto wholeStrides = [&] {
            std::vector<std::int64_t> s(whole.shape.size(), 1);
            for (std::size_t d = s.size(); d-- > 1;)
                s[d - 1] = s[d] * whole.shape[d];
            return s;
        }();
        for (std::int64_t i = 0; i < n; ++i) {
            std::int64_t rest = i, at = 0;
            for (std::size_t d = region.size(); d-- > 0;) {
                at += (region[d].begin + rest % region[d].size()) * wholeStrides[d];
                rest /= region[d].size();
            }
            data[static_cast<std::size_t>(i)] = whole.floats()[at];
        }
        view.data = reinterpret_cast<unsigned char*>(data.data());
    }
};

tiling::Region randomRegion(const ir::Shape& shape, std::mt19937& rng) {
    tiling::Region r;
    for (std::int64_t d : shape) {
        std::uniform_int_distribution<std::int64_t> pick(0, d - 1);
        std::int64_t a = pick(rng), b = pick(rng);
        if (a > b)
            std::swap(a, b);
        r.push_back({a, b + 1});
    }
    return r;
}

// Runs fastEinsum on random output regions of the model's single Einsum, operands boxed as
// bounds inference says (or whole when `wholeInputs`); expects it to take the op exactly when
// `fast`, and then the reference's values in the box.
void checkTiles(const std::string& text, bool fast, bool wholeInputs = false, int trials = 10) {
    SCOPED_TRACE(text);
    auto m = importText(text);
    ASSERT_TRUE(m) << joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    const ir::Op& op = g.ops.back();
    ASSERT_EQ(op.type, "Einsum");
    const auto inputs = reference::sampleInputs(g, 3);
    auto expected = reference::evaluate(g, inputs);
    ASSERT_TRUE(expected) << joined(expected.diagnostics());
    const reference::Tensor& want = expected->front();
    std::mt19937 rng(42);
    for (int trial = 0; trial < trials; ++trial) {
        const tiling::Region region = randomRegion(want.shape, rng);
        const auto needed = tiling::inputRegions(g, op, {region});
        runtime::PreparedCompute p;
        p.call.kernel = compiler::Kernel::Reference;
        p.graph = &g;
        p.op = &op;
        std::vector<OperandBox> boxes;
        boxes.reserve(op.inputs.size());
        for (std::size_t i = 0; i < op.inputs.size(); ++i) {
            const auto at = std::find(g.inputs.begin(), g.inputs.end(), op.inputs[i]);
            ASSERT_NE(at, g.inputs.end());
            const reference::Tensor& whole = inputs[std::size_t(at - g.inputs.begin())];
            ASSERT_TRUE(needed[i]);
            boxes.emplace_back(whole, wholeInputs ? tiling::fullRegion(whole.shape) : *needed[i]);
            p.inputs.push_back(boxes.back().view);
            p.constants.emplace_back();
        }
        OperandBox out(want, region);
        std::fill(out.data.begin(), out.data.end(), std::nanf(""));
        p.output = out.view;
        p.outputs = {out.view};
        ASSERT_EQ(runtime::fastEinsum(p), fast) << tiling::regionToString(region);
        if (!fast)
            continue;
        const OperandBox reference(want, region);
        for (std::size_t i = 0; i < out.data.size(); ++i)
            ASSERT_NEAR(out.data[i], reference.data[i], 1e-5f * (1 + std::fabs(reference.data[i])))
                << "element " << i << " of " << tiling::regionToString(region);
    }
}

TEST(EinsumKernel, AttentionAsMaxVitWritesIt) {
    checkTiles(einsumModel("(float[1, 4, 2, 9, 8] Q, float[1, 4, 2, 7, 8] K) => "
                           "(float[1, 4, 2, 9, 7] Y)",
                           "B G H I D, B G H J D -> B G H I J", "Q, K"),
               true);
    checkTiles(einsumModel("(float[1, 4, 2, 9, 7] P, float[1, 4, 2, 7, 8] V) => "
                           "(float[1, 4, 2, 9, 8] Y)",
                           "BGHIJ,BGHJD->BGHID", "P, V"),
               true);
}

// Labels in orders no matrix view fits: operands and output are packed.
TEST(EinsumKernel, PermutedLabelsArePacked) {
    checkTiles(einsumModel("(float[5, 3, 6] A, float[6, 4, 3] B) => (float[4, 3, 5] Y)",
                           "ibk,kjb->jbi", "A, B"),
               true);
    // Two row labels and two summed labels, in opposite orders in the two operands.
    checkTiles(einsumModel("(float[2, 3, 4, 5] A, float[5, 4, 6] B) => (float[3, 2, 6] Y)",
                           "ijkl,lkn->jin", "A, B"),
               true);
    checkTiles(einsumModel("(float[2, 3, 4, 5] A, float[5, 4, 6] B) => (float[3, 2, 6] Y)",
                           "ijkl,lkn->jin", "A, B"),
               true, true);
}

TEST(EinsumKernel, OuterProductAndImplicitOutput) {
    checkTiles(einsumModel("(float[7] A, float[5] B) => (float[7, 5] Y)", "i,j->ij", "A, B"), true);
    checkTiles(einsumModel("(float[3, 6] A, float[6, 4] B) => (float[3, 4] Y)", "ij,jk", "A, B"),
               true, true);
}

// Not a batch of matrix products: left to the reference.
TEST(EinsumKernel, RefusesWhatIsNotABatchedMatrixProduct) {
    checkTiles(einsumModel("(float[4, 5] X) => (float[5, 4] Y)", "ij->ji", "X"), false);
    checkTiles(einsumModel("(float[3, 4] A, float[4, 5] B, float[5, 2] C) => (float[3, 2] Y)",
                           "ij,jk,kl->il", "A, B, C"),
               false);
    checkTiles(einsumModel("(float[4, 4] A, float[4] B) => (float[4] Y)", "ii,i->i", "A, B"),
               false);
    checkTiles(einsumModel("(float[3, 5] A, float[3] B) => (float[3] Y)", "ij,i->i", "A, B"),
               false);
    checkTiles(einsumModel("(float[2, 1, 5, 7] A, float[2, 3, 7, 6] B) => (float[2, 3, 5, 6] Y)",
                           "...ik,...kj->...ij", "A, B"),
               false);
}

// Whole programs: every strategy, on the host and on a host whose 16 KiB of working memory cuts
// the Einsums into tiles.
TEST(EinsumKernel, CompiledProgramsMatchTheReference) {
    auto m = importText(
        "<ir_version: 8, opset_import: [\"\" : 17]>\n"
        "g (float[1, 4, 2, 20, 16] q, float[1, 4, 2, 20, 16] k) => (float[1, 4, 2, 20, 16] y) {\n"
        "    s = Einsum <equation = \"B G H I D, B G H J D -> B G H I J\"> (q, k)\n"
        "    p = Softmax <axis = -1> (s)\n"
        "    y = Einsum <equation = \"B G H I J, B G H J D -> B G H I D\"> (p, k)\n}\n");
    ASSERT_TRUE(m) << joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    const auto inputs = reference::sampleInputs(g, 5);
    auto expected = reference::evaluate(g, inputs);
    ASSERT_TRUE(expected) << joined(expected.diagnostics());
    auto host = target::resolveTarget("host");
    ASSERT_TRUE(host) << joined(host.diagnostics());
    target::Target small = *host;
    for (auto& memory : small.memories)
        if (memory.name == small.workingMemory)
            memory.capacityBytes = 16 * 1024;
    for (const target::Target& target : {*host, small}) {
        for (auto strategy :
             {schedule::Strategy::PerOp, schedule::Strategy::FuseMax, schedule::Strategy::Rules}) {
            SCOPED_TRACE(std::string(schedule::strategyName(strategy)));
            auto compiled =
                compiler::compile(g, target, schedule::makeSchedule(g, target, strategy));
            ASSERT_TRUE(compiled) << joined(compiled.diagnostics());
            auto result = runtime::run(compiled->program, target, g, inputs);
            ASSERT_TRUE(result) << joined(result.diagnostics());
            auto c = reference::compare(result->outputs.front(), expected->front(), 1e-5, 1e-4);
            EXPECT_TRUE(c.ok) << c.message;
        }
    }
}

} // namespace
} // namespace strata::test
