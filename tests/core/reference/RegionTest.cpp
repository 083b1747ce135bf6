// computeRegion: an output assembled from random tiles equals the whole evaluation bit for bit,
// and a region computed from inputs poisoned outside the regions bounds inference names
// (tiling::inputRegions) is still right and touches nothing outside itself.

#include "tiling/Region.h"

#include "reference/Evaluator.h"
#include "support/TestModels.h"
#include "tiling/FoldedOperands.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>
#include <limits>
#include <random>

namespace strata::reference {
namespace {

std::string model(const std::string& signature, const std::string& body, int opset = 17) {
    return "<ir_version: 8, opset_import: [\"\" : " + std::to_string(opset) + "]>\ng " + signature +
           " {\n" + body + "\n}\n";
}

Tensor randomTensor(const ir::Value& v, std::mt19937& rng) {
    Tensor t = zerosLike(v);
    std::uniform_real_distribution<float> uniform(-1.f, 1.f);
    if (v.dtype == ir::DType::Float32)
        for (std::int64_t i = 0; i < t.elements(); ++i)
            t.floats()[i] = uniform(rng);
    return t;
}

// Random cut points splitting [0, n) into pieces.
std::vector<tiling::Interval> randomPieces(std::int64_t n, std::mt19937& rng) {
    std::vector<std::int64_t> cuts{0, n};
    std::uniform_int_distribution<std::int64_t> at(1, std::max<std::int64_t>(n - 1, 1));
    for (int k = 0; k < 2 && n > 1; ++k)
        cuts.push_back(at(rng));
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    std::vector<tiling::Interval> pieces;
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i)
        pieces.push_back({cuts[i], cuts[i + 1]});
    return pieces;
}

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

bool sameBits(const Tensor& a, const Tensor& b) {
    return a.shape == b.shape && a.dtype == b.dtype && a.bytes == b.bytes;
}

// Float32 `t` with every element outside `keep` set to `poison`.
Tensor poisoned(const Tensor& t, const tiling::Region& keep, float poison) {
    Tensor out = t;
    if (t.dtype != ir::DType::Float32)
        return out;
    std::vector<std::int64_t> index(t.shape.size(), 0);
    for (std::int64_t i = 0; i < t.elements(); ++i) {
        std::int64_t rest = i;
        bool inside = true;
        for (std::size_t d = t.shape.size(); d-- > 0;) {
            const std::int64_t x = rest % t.shape[d];
            rest /= t.shape[d];
            inside = inside && x >= keep[d].begin && x < keep[d].end;
        }
        if (!inside)
            out.floats()[i] = poison;
    }
    return out;
}

// Checks every output of the graph's single (last) op against region-wise computation.
void checkRegions(const std::string& text, int trials = 12) {
    SCOPED_TRACE(text);
    auto m = test::importText(text);
    ASSERT_TRUE(m.ok()) << test::joined(m.diagnostics());
    const ir::Graph& g = *m->graph;
    const ir::Op& op = g.ops.back();
    ASSERT_TRUE(supports(g, op)) << unsupportedReason(g, op);
    std::mt19937 rng(1234);
    std::vector<Tensor> inputs;
    for (ir::ValueId id : g.inputs)
        inputs.push_back(randomTensor(g.value(id), rng));
    auto whole = evaluate(g, inputs);
    ASSERT_TRUE(whole.ok()) << test::joined(whole.diagnostics());

    // The op's inputs as full tensors: graph inputs by id, constants from their data.
    std::vector<Tensor> opInputs;
    std::vector<const Tensor*> in;
    opInputs.reserve(op.inputs.size());
    for (ir::ValueId id : op.inputs) {
        if (!id.valid()) {
            opInputs.emplace_back();
            continue;
        }
        const auto pos = std::find(g.inputs.begin(), g.inputs.end(), id);
        if (pos != g.inputs.end())
            opInputs.push_back(inputs[std::size_t(pos - g.inputs.begin())]);
        else
            opInputs.push_back(*constantTensor(g.value(id)));
    }
    for (std::size_t i = 0; i < op.inputs.size(); ++i)
        in.push_back(op.inputs[i].valid() ? &opInputs[i] : nullptr);

    for (std::size_t k = 0; k < op.outputs.size(); ++k) {
        const auto outPos = std::find(g.outputs.begin(), g.outputs.end(), op.outputs[k]);
        ASSERT_NE(outPos, g.outputs.end());
        const Tensor& expected = (*whole)[std::size_t(outPos - g.outputs.begin())];
        const ir::Shape& shape = expected.shape;
        for (int trial = 0; trial < trials; ++trial) {
            // 1. A random tiling of the whole output.
            std::vector<std::vector<tiling::Interval>> pieces;
            for (std::int64_t d : shape)
                pieces.push_back(randomPieces(d, rng));
            Tensor tiled = zerosLike(g.value(op.outputs[k]));
            std::vector<std::size_t> pick(shape.size(), 0);
            while (true) {
                tiling::Region tile;
                for (std::size_t d = 0; d < shape.size(); ++d)
                    tile.push_back(pieces[d][pick[d]]);
                auto done = computeRegion(g, op, in, tile, tiled, k);
                ASSERT_TRUE(done.ok()) << test::joined(done.diagnostics());
                std::size_t d = shape.size();
                while (d > 0 && ++pick[d - 1] == pieces[d - 1].size())
                    pick[--d] = 0;
                if (d == 0)
                    break;
            }
            EXPECT_TRUE(sameBits(tiled, expected)) << "output " << k << ", trial " << trial;

            // 2. One region from inputs poisoned outside what bounds inference says it reads.
            const tiling::Region region = randomRegion(shape, rng);
            std::vector<std::optional<tiling::Region>> want(op.outputs.size());
            want[k] = region;
            const auto needed = tiling::inputRegions(g, op, want);
            for (float poison : {std::numeric_limits<float>::quiet_NaN(), 1e30f}) {
                std::vector<Tensor> dirty;
                std::vector<const Tensor*> dirtyIn;
                dirty.reserve(in.size());
                for (std::size_t i = 0; i < in.size(); ++i) {
                    if (!in[i]) {
                        dirty.emplace_back();
                        continue;
                    }
                    // An input not needed at all is poisoned whole; one the instruction
                    // carries (a folded operand) is read from the graph, never from a box.
                    const tiling::Region keep = needed[i] ? *needed[i]
                                                : tiling::isFoldedOperand(g, op, i)
                                                    ? tiling::fullRegion(in[i]->shape)
                                                    : tiling::Region(in[i]->shape.size(), {0, 0});
                    dirty.push_back(poisoned(*in[i], keep, poison));
                }
                for (std::size_t i = 0; i < in.size(); ++i)
                    dirtyIn.push_back(in[i] ? &dirty[i] : nullptr);
                Tensor out = zerosLike(g.value(op.outputs[k]));
                const std::vector<std::byte> untouched(out.bytes.size(), std::byte{0x5a});
                out.bytes = untouched;
                auto done = computeRegion(g, op, dirtyIn, region, out, k);
                ASSERT_TRUE(done.ok()) << test::joined(done.diagnostics());
                // Inside the region: the whole evaluation's values; outside: untouched bytes.
                const std::size_t size = ir::dtypeSize(out.dtype);
                const tiling::Region full = tiling::fullRegion(shape);
                std::vector<std::int64_t> index(shape.size());
                for (std::int64_t i = 0; i < out.elements(); ++i) {
                    std::int64_t rest = i;
                    bool inside = true;
                    for (std::size_t d = shape.size(); d-- > 0;) {
                        index[d] = rest % shape[d];
                        rest /= shape[d];
                        inside = inside && index[d] >= region[d].begin && index[d] < region[d].end;
                    }
                    const std::byte* got = out.bytes.data() + std::size_t(i) * size;
                    const std::byte* ref =
                        inside ? expected.bytes.data() + std::size_t(i) * size : untouched.data();
                    ASSERT_EQ(std::memcmp(got, ref, size), 0)
                        << "output " << k << " element " << i << (inside ? " inside " : " outside ")
                        << tiling::regionToString(region) << ", poison " << poison;
                }
            }
        }
    }
}

TEST(ComputeRegion, ConvStridePadsDilationBias) {
    checkRegions(
        model("(float[2, 3, 11, 10] X, float[4, 3, 3, 3] W, float[4] B) => (float[2, 4, 5, 4] Y)",
              "Y = Conv <pads = [1, 0, 2, 1], strides = [2, 2], dilations = [2, 1]> (X, W, B)"));
}

TEST(ComputeRegion, GroupedAndDepthwiseConv) {
    checkRegions(model("(float[1, 4, 7, 7] X, float[6, 2, 3, 3] W) => (float[1, 6, 7, 7] Y)",
                       "Y = Conv <group = 2, auto_pad = \"SAME_UPPER\"> (X, W)"));
    checkRegions(model("(float[1, 4, 9, 9] X, float[4, 1, 3, 3] W) => (float[1, 4, 5, 5] Y)",
                       "Y = Conv <group = 4, pads = [1, 1, 1, 1], strides = [2, 2]> (X, W)"));
}

TEST(ComputeRegion, Conv1dAnd3d) {
    checkRegions(model("(float[1, 2, 12] X, float[3, 2, 4] W) => (float[1, 3, 5] Y)",
                       "Y = Conv <strides = [2], pads = [1, 0]> (X, W)"));
    checkRegions(
        model("(float[1, 2, 5, 6, 6] X, float[2, 2, 2, 3, 3] W) => (float[1, 2, 4, 4, 4] Y)",
              "Y = Conv (X, W)"),
        4);
}

TEST(ComputeRegion, ConvTranspose) {
    checkRegions(
        model("(float[1, 2, 4, 5] X, float[2, 3, 3, 3] W, float[3] B) => (float[1, 3, 8, 10] Y)",
              "Y = ConvTranspose <strides = [2, 2], pads = [1, 1, 0, 0]> (X, W, B)"));
}

TEST(ComputeRegion, Pools) {
    checkRegions(
        model("(float[1, 3, 9, 9] X) => (float[1, 3, 5, 5] Y)",
              "Y = MaxPool <kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]> (X)"));
    checkRegions(model("(float[1, 3, 8, 8] X) => (float[1, 3, 4, 4] Y)",
                       "Y = MaxPool <kernel_shape = [3, 3], strides = [2, 2], ceil_mode = 1> (X)"));
    checkRegions(
        model("(float[2, 3, 7, 8] X) => (float[2, 3, 4, 4] Y)",
              "Y = AveragePool <kernel_shape = [3, 2], strides = [2, 2], pads = [1, 0, 1, 0], "
              "count_include_pad = 1> (X)"));
    checkRegions(
        model("(float[2, 3, 7, 8] X) => (float[2, 3, 1, 1] Y)", "Y = GlobalAveragePool (X)"));
}

TEST(ComputeRegion, MatMulAndGemm) {
    checkRegions(model("(float[2, 1, 5, 7] A, float[3, 7, 6] B) => (float[2, 3, 5, 6] Y)",
                       "Y = MatMul (A, B)"));
    checkRegions(model("(float[7] A, float[2, 7, 6] B) => (float[2, 6] Y)", "Y = MatMul (A, B)"));
    checkRegions(model("(float[5, 7] A, float[6, 7] B, float[6] C) => (float[5, 6] Y)",
                       "Y = Gemm <transB = 1, alpha = 0.5, beta = 2.0> (A, B, C)"));
    checkRegions(model("(float[7, 5] A, float[7, 6] B, float[5, 1] C) => (float[5, 6] Y)",
                       "Y = Gemm <transA = 1> (A, B, C)"));
}

TEST(ComputeRegion, Einsum) {
    checkRegions(
        model("(float[1, 3, 2, 5, 4] Q, float[1, 3, 2, 6, 4] K) => (float[1, 3, 2, 5, 6] S)",
              "S = Einsum <equation = \"B G H I D, B G H J D -> B G H I J\"> (Q, K)"));
    checkRegions(model("(float[2, 1, 5, 7] A, float[2, 3, 7, 6] B) => (float[2, 3, 5, 6] Y)",
                       "Y = Einsum <equation = \"...ik,...kj->...ij\"> (A, B)"));
    checkRegions(
        model("(float[4, 5, 6] X) => (float[6, 4] Y)", "Y = Einsum <equation = \"ijk->ki\"> (X)"));
    checkRegions(
        model("(float[5, 5, 3] X) => (float[3, 5] Y)", "Y = Einsum <equation = \"iij->ji\"> (X)"));
    checkRegions(model("(float[5, 3] X) => (float[5, 5] Y)",
                       "Y = Einsum <equation = \"ik,jk->ij\"> (X, X)"));
    checkRegions(model("(float[2, 3] A, float[3, 4] B, float[4, 2] C) => (float[2, 2] Y)",
                       "Y = Einsum <equation = \"ij,jk,kl->il\"> (A, B, C)"));
}

TEST(ComputeRegion, SoftmaxAndNormalizations) {
    checkRegions(
        model("(float[2, 3, 5, 4] X) => (float[2, 3, 5, 4] Y)", "Y = Softmax <axis = 2> (X)"));
    checkRegions(
        model("(float[2, 3, 5, 4] X) => (float[2, 3, 5, 4] Y)", "Y = Softmax <axis = 1> (X)", 11));
    checkRegions(model("(float[2, 3, 5] X) => (float[2, 3, 5] Y)", "Y = LogSoftmax (X)"));
    checkRegions(
        model("(float[2, 4, 6] X, float[6] S, float[6] B) => (float[2, 4, 6] Y, float[2, 4, 1] M, "
              "float[2, 4, 1] R)",
              "Y, M, R = LayerNormalization <axis = -1> (X, S, B)"));
    checkRegions(model("(float[2, 3, 4, 5] X, float[3] S, float[3] B) => (float[2, 3, 4, 5] Y)",
                       "Y = InstanceNormalization (X, S, B)"));
    checkRegions(model("(float[1, 3, 4, 4] X, float[3] S, float[3] B, float[3] M, float[3] V) => "
                       "(float[1, 3, 4, 4] Y)",
                       "Y = BatchNormalization (X, S, B, M, V)"));
}

TEST(ComputeRegion, ReductionsAndElementwise) {
    checkRegions(
        model("(float[3, 4, 5] X) => (float[3, 1, 5] Y)", "Y = ReduceMean <axes = [1]> (X)"));
    checkRegions(model("(float[3, 4, 5] X) => (float[4] Y)",
                       "Y = ReduceMax <axes = [0, 2], keepdims = 0> (X)"));
    checkRegions(
        model("(float[3, 1, 5] A, float[4, 1] B) => (float[3, 4, 5] Y)", "Y = Add (A, B)"));
    checkRegions(model("(float[3, 4] X) => (float[3, 4] Y)", "Y = Sigmoid (X)"));
}

TEST(ComputeRegion, DataMovement) {
    checkRegions(
        model("(float[2, 3, 4] X) => (float[4, 2, 3] Y)", "Y = Transpose <perm = [2, 0, 1]> (X)"));
    checkRegions(
        model("(float[2, 3] A, float[2, 5] B) => (float[2, 8] Y)", "Y = Concat <axis = 1> (A, B)"));
    checkRegions(model("(float[2, 9] X) => (float[2, 4] A, float[2, 5] B)",
                       "s = Constant <value = int64[2] {4, 5}> ()\n"
                       "  A, B = Split <axis = 1> (X, s)"));
    checkRegions(model("(float[5, 9] X) => (float[3, 3] Y)",
                       "st = Constant <value = int64[2] {4, 1}> ()\n"
                       "  en = Constant <value = int64[2] {0, 9}> ()\n"
                       "  ax = Constant <value = int64[2] {0, 1}> ()\n"
                       "  sp = Constant <value = int64[2] {-1, 3}> ()\n"
                       "  Y = Slice (X, st, en, ax, sp)"));
    checkRegions(model("(float[3, 4] X) => (float[5, 9] Y)",
                       "p = Constant <value = int64[4] {1, 2, 1, 3}> ()\n"
                       "  Y = Pad <mode = \"reflect\"> (X, p)"));
    checkRegions(model("(float[5, 4] X) => (float[2, 3, 4] Y)",
                       "i = Constant <value = int64[2, 3] {0, 4, -1, 2, 2, 1}> ()\n"
                       "  Y = Gather <axis = 0> (X, i)"));
    checkRegions(model("(float[1, 8, 2, 3] X) => (float[1, 2, 4, 6] Y)",
                       "Y = DepthToSpace <blocksize = 2, mode = \"CRD\"> (X)"));
}

TEST(ComputeRegion, Resize) {
    checkRegions(model("(float[1, 2, 4, 5] X) => (float[1, 2, 8, 10] Y)",
                       "s = Constant <value = float[4] {1.0, 1.0, 2.0, 2.0}> ()\n"
                       "  Y = Resize <mode = \"linear\"> (X, , s)"));
}

TEST(ComputeRegion, EmptyRegionComputesNothingAndBadRegionsAreRejected) {
    auto m = test::importText(model("(float[2, 3] X) => (float[2, 3] Y)", "Y = Relu (X)"));
    ASSERT_TRUE(m.ok());
    const ir::Graph& g = *m->graph;
    Tensor x = zeros(ir::DType::Float32, {2, 3});
    Tensor y = zeros(ir::DType::Float32, {2, 3});
    y.floats()[0] = 7;
    EXPECT_TRUE(computeRegion(g, g.ops[0], {&x}, {{1, 1}, {0, 3}}, y).ok());
    EXPECT_EQ(y.floats()[0], 7);
    auto outside = computeRegion(g, g.ops[0], {&x}, {{0, 3}, {0, 3}}, y);
    ASSERT_FALSE(outside.ok());
    EXPECT_TRUE(test::mentions(outside.diagnostics(), "is not inside output"))
        << test::joined(outside.diagnostics());
    Tensor wrong = zeros(ir::DType::Float32, {3, 2});
    auto badOut = computeRegion(g, g.ops[0], {&x}, {{0, 2}, {0, 3}}, wrong);
    ASSERT_FALSE(badOut.ok());
    EXPECT_TRUE(test::mentions(badOut.diagnostics(), "output tensor is float32 3x2"))
        << test::joined(badOut.diagnostics());
    auto badIn = computeRegion(g, g.ops[0], {&wrong}, {{0, 2}, {0, 3}}, y);
    ASSERT_FALSE(badIn.ok());
    EXPECT_TRUE(test::mentions(badIn.diagnostics(),
                               "input 0 ('X') is float32 3x2, the graph says float32 2x3"))
        << test::joined(badIn.diagnostics());
    auto badIndex = computeRegion(g, g.ops[0], {&x}, {{0, 2}, {0, 3}}, y, 1);
    ASSERT_FALSE(badIndex.ok());
    EXPECT_TRUE(test::mentions(badIndex.diagnostics(), "output 1 was asked for"));
}

} // namespace
} // namespace strata::reference
