#pragma once
// Layer-sized building blocks shared by the sample models, spelled the way torch.onnx exports
// them (conv without bias before BatchNormalization, Linear as MatMul + Add, and so on). Each
// takes a name prefix and returns the name of the value it produces.

#include "OnnxBuilder.h"

#include <cstdint>
#include <string>

namespace strata::samples {

struct ConvSpec {
    std::int64_t inChannels = 0;
    std::int64_t outChannels = 0;
    std::int64_t kernel = 3; // square; padding is kernel / 2 ("same" at stride 1)
    std::int64_t stride = 1;
    std::int64_t groups = 1; // inChannels for a depthwise conv
    bool bias = false;
};

std::string conv(OnnxBuilder& b, const std::string& name, const std::string& x,
                 const ConvSpec& spec);
// Inference-mode BatchNormalization with random statistics (variance stays positive).
std::string batchNorm(OnnxBuilder& b, const std::string& name, const std::string& x,
                      std::int64_t channels);
// Conv + BatchNormalization; the names are "<prefix>conv" and "<prefix>bn".
std::string convBn(OnnxBuilder& b, const std::string& prefix, const std::string& x,
                   const ConvSpec& spec);

// nn.Linear on a rank-3 activation: MatMul with a [in, out] weight, then Add of the bias.
std::string linear(OnnxBuilder& b, const std::string& name, const std::string& x,
                   std::int64_t inFeatures, std::int64_t outFeatures);
// nn.Linear on a rank-2 activation as torch exports it: Gemm with transB=1.
std::string gemm(OnnxBuilder& b, const std::string& name, const std::string& x,
                 std::int64_t inFeatures, std::int64_t outFeatures, const std::string& output);
// nn.LayerNorm over the last axis.
std::string layerNorm(OnnxBuilder& b, const std::string& name, const std::string& x,
                      std::int64_t features);

} // namespace strata::samples
