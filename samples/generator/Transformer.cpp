#include "NetLayers.h"
#include "SampleModels.h"

#include <cmath>
#include <stdexcept>

namespace strata::samples {
namespace {

constexpr std::uint64_t kSeed = 0x5e5e7003;
constexpr std::int64_t kSeqLen = 16;
constexpr std::int64_t kHidden = 64;
constexpr std::int64_t kHeads = 4;
constexpr std::int64_t kHeadDim = kHidden / kHeads;
constexpr std::int64_t kFfn = 256;

// Batch and sequence length of an activation as 1-D int64 tensors, read at run time the way
// torch exports `B, T, _ = x.size()`.
struct RuntimeDims {
    std::string batch;
    std::string seq;
};

RuntimeDims runtimeDims(OnnxBuilder& b, const std::string& prefix, const std::string& x) {
    const std::string shape = b.node("Shape", prefix + "shape", {x});
    const std::string axes = b.constantInt64s(prefix + "unsqueeze_axes", {1}, {0});
    RuntimeDims dims;
    const char* names[] = {"batch", "seq"};
    std::string* outputs[] = {&dims.batch, &dims.seq};
    for (std::int64_t i = 0; i < 2; ++i) {
        const std::string index = b.constantInt64s(prefix + names[i] + "_index", {}, {i});
        const std::string scalar = b.node("Gather", prefix + "gather_" + names[i], {shape, index},
                                          {{"axis", std::int64_t{0}}});
        *outputs[i] = b.node("Unsqueeze", prefix + "unsqueeze_" + names[i], {scalar, axes});
    }
    return dims;
}

// Runtime Concat of [B, T] with constant trailing dims: a Reshape target.
std::string reshapeTarget(OnnxBuilder& b, const std::string& name, const RuntimeDims& dims,
                          const std::vector<std::int64_t>& tail) {
    const std::string tailConst =
        b.constantInt64s(name + "_tail", {static_cast<std::int64_t>(tail.size())}, tail);
    return b.node("Concat", name, {dims.batch, dims.seq, tailConst}, {{"axis", std::int64_t{0}}});
}

std::string transpose(OnnxBuilder& b, const std::string& name, const std::string& x,
                      std::vector<std::int64_t> perm) {
    return b.node("Transpose", name, {x}, {{"perm", std::move(perm)}});
}

// Multi-head self-attention on a normalised [B, T, C] activation.
std::string selfAttention(OnnxBuilder& b, const std::string& prefix, const std::string& x) {
    const RuntimeDims dims = runtimeDims(b, prefix, x);
    const std::string splitShape =
        reshapeTarget(b, prefix + "split_shape", dims, {kHeads, kHeadDim});

    // Q and V go to [B, H, T, D]; K goes straight to [B, H, D, T] so Q @ K is Q @ K^T.
    const std::vector<std::int64_t> toHeads = {0, 2, 1, 3};
    const std::vector<std::int64_t> toHeadsTransposed = {0, 2, 3, 1};
    std::string heads[3];
    const char* names[] = {"q", "k", "v"};
    for (int i = 0; i < 3; ++i) {
        const std::string p = prefix + names[i];
        const std::string projected = linear(b, p, x, kHidden, kHidden);
        const std::string split = b.node("Reshape", p + "/split", {projected, splitShape});
        heads[i] = transpose(b, p + "/transpose", split, i == 1 ? toHeadsTransposed : toHeads);
    }

    std::string scores = b.node("MatMul", prefix + "scores", {heads[0], heads[1]});
    const float scale = std::sqrt(static_cast<float>(kHeadDim));
    scores =
        b.node("Div", prefix + "scale", {scores, b.constantFloats(prefix + "sqrt_d", {}, {scale})});
    const std::string probs =
        b.node("Softmax", prefix + "softmax", {scores}, {{"axis", std::int64_t{-1}}});
    std::string context = b.node("MatMul", prefix + "context", {probs, heads[2]});

    context = transpose(b, prefix + "merge/transpose", context, toHeads);
    const std::string mergeShape = reshapeTarget(b, prefix + "merge/shape", dims, {kHidden});
    context = b.node("Reshape", prefix + "merge/reshape", {context, mergeShape});
    return linear(b, prefix + "out", context, kHidden, kHidden);
}

// Exact GELU as torch exports it below opset 20: x * (1 + erf(x / sqrt(2))) * 0.5.
std::string gelu(OnnxBuilder& b, const std::string& prefix, const std::string& x) {
    const std::string sqrt2 = b.constantFloats(prefix + "sqrt2", {}, {std::sqrt(2.0f)});
    const std::string one = b.constantFloats(prefix + "one", {}, {1.0f});
    const std::string half = b.constantFloats(prefix + "half", {}, {0.5f});
    std::string y = b.node("Div", prefix + "div", {x, sqrt2});
    y = b.node("Erf", prefix + "erf", {y});
    y = b.node("Add", prefix + "add_one", {y, one});
    y = b.node("Mul", prefix + "mul_x", {x, y});
    return b.node("Mul", prefix + "mul_half", {y, half});
}

// Pre-norm block: x + attn(ln1(x)), then h + mlp(ln2(h)).
std::string transformerBlock(OnnxBuilder& b, const std::string& prefix, const std::string& x,
                             const std::string& output) {
    const std::string attention =
        selfAttention(b, prefix + "attn/", layerNorm(b, prefix + "ln1", x, kHidden));
    const std::string h = b.node("Add", prefix + "attn_residual", {x, attention});

    std::string m = layerNorm(b, prefix + "ln2", h, kHidden);
    m = linear(b, prefix + "mlp/fc1", m, kHidden, kFfn);
    m = gelu(b, prefix + "mlp/gelu/", m);
    m = linear(b, prefix + "mlp/fc2", m, kFfn, kHidden);
    return b.node("Add", prefix + "mlp_residual", {h, m}, {}, output);
}

} // namespace

onnx::ModelProto makeTransformer(int layers) {
    if (layers < 1) {
        throw std::invalid_argument("a transformer needs at least one layer");
    }
    OnnxBuilder b(layers == 1 ? "transformer_block" : "transformer_stack", kSeed);
    b.addInput("tokens", {std::string("N"), kSeqLen, kHidden});

    std::string x = "tokens";
    for (int layer = 0; layer < layers; ++layer) {
        // A single block keeps short names; a stack prefixes each layer so names stay unique.
        const std::string prefix = layers == 1 ? "" : "layer" + std::to_string(layer) + "/";
        x = transformerBlock(b, prefix, x, layer + 1 == layers ? "hidden" : "");
    }

    b.addOutput("hidden", {std::string("N"), kSeqLen, kHidden});
    return b.finish("Pre-norm transformer (" + std::to_string(layers) +
                    " layer(s), hidden 64, 4 heads) with random weights, for Strata's samples.");
}

} // namespace strata::samples
