#include "NetLayers.h"

namespace strata::samples {
namespace {

constexpr float kBatchNormEpsilon = 1e-5f;
constexpr float kBatchNormMomentum = 0.9f;
constexpr float kLayerNormEpsilon = 1e-5f;

} // namespace

std::string conv(OnnxBuilder& b, const std::string& name, const std::string& x,
                 const ConvSpec& spec) {
    const std::int64_t k = spec.kernel;
    const std::int64_t pad = k / 2;
    std::vector<std::string> inputs = {
        x,
        b.randomWeight(name + ".weight", {spec.outChannels, spec.inChannels / spec.groups, k, k})};
    if (spec.bias) {
        inputs.push_back(b.randomWeight(name + ".bias", {spec.outChannels}));
    }
    return b.node("Conv", name, inputs,
                  {{"dilations", std::vector<std::int64_t>{1, 1}},
                   {"group", spec.groups},
                   {"kernel_shape", std::vector<std::int64_t>{k, k}},
                   {"pads", std::vector<std::int64_t>{pad, pad, pad, pad}},
                   {"strides", std::vector<std::int64_t>{spec.stride, spec.stride}}});
}

std::string batchNorm(OnnxBuilder& b, const std::string& name, const std::string& x,
                      std::int64_t channels) {
    return b.node("BatchNormalization", name,
                  {x, b.randomWeight(name + ".weight", {channels}, 1.0f),
                   b.randomWeight(name + ".bias", {channels}),
                   b.randomWeight(name + ".running_mean", {channels}),
                   b.randomWeight(name + ".running_var", {channels}, 1.0f)},
                  {{"epsilon", kBatchNormEpsilon},
                   {"momentum", kBatchNormMomentum},
                   {"training_mode", std::int64_t{0}}});
}

std::string convBn(OnnxBuilder& b, const std::string& prefix, const std::string& x,
                   const ConvSpec& spec) {
    return batchNorm(b, prefix + "bn", conv(b, prefix + "conv", x, spec), spec.outChannels);
}

std::string linear(OnnxBuilder& b, const std::string& name, const std::string& x,
                   std::int64_t inFeatures, std::int64_t outFeatures) {
    const std::string product =
        b.node("MatMul", name + "/MatMul",
               {x, b.randomWeight(name + ".weight", {inFeatures, outFeatures})});
    return b.node("Add", name + "/Add", {product, b.randomWeight(name + ".bias", {outFeatures})});
}

std::string gemm(OnnxBuilder& b, const std::string& name, const std::string& x,
                 std::int64_t inFeatures, std::int64_t outFeatures, const std::string& output) {
    return b.node("Gemm", name,
                  {x, b.randomWeight(name + ".weight", {outFeatures, inFeatures}),
                   b.randomWeight(name + ".bias", {outFeatures})},
                  {{"alpha", 1.0f}, {"beta", 1.0f}, {"transB", std::int64_t{1}}}, output);
}

std::string layerNorm(OnnxBuilder& b, const std::string& name, const std::string& x,
                      std::int64_t features) {
    return b.node("LayerNormalization", name,
                  {x, b.randomWeight(name + ".weight", {features}, 1.0f),
                   b.randomWeight(name + ".bias", {features})},
                  {{"axis", std::int64_t{-1}}, {"epsilon", kLayerNormEpsilon}});
}

} // namespace strata::samples
