#include "NetLayers.h"
#include "SampleModels.h"

namespace strata::samples {
namespace {

constexpr std::uint64_t kSeed = 0x5e5e7002;
constexpr std::int64_t kClasses = 10;
constexpr std::int64_t kExpansion = 4;

struct BlockSpec {
    std::int64_t inChannels;
    std::int64_t outChannels;
    std::int64_t stride;
};

// Clip has taken min/max as inputs since opset 11; one shared pair of initializers feeds them
// all, which also gives the importer constants with many consumers.
struct Relu6Bounds {
    std::string min;
    std::string max;
};

std::string relu6(OnnxBuilder& b, const std::string& name, const std::string& x,
                  const Relu6Bounds& bounds) {
    return b.node("Clip", name, {x, bounds.min, bounds.max});
}

// MobileNetV2's inverted residual: 1x1 expand, 3x3 depthwise, 1x1 linear projection, and a
// skip Add when input and output shapes match.
std::string invertedResidual(OnnxBuilder& b, const std::string& prefix, const std::string& x,
                             const BlockSpec& spec, const Relu6Bounds& bounds) {
    const std::int64_t hidden = spec.inChannels * kExpansion;
    std::string y = convBn(b, prefix + "expand/", x, {spec.inChannels, hidden, 1, 1});
    y = relu6(b, prefix + "expand/relu6", y, bounds);
    y = convBn(b, prefix + "depthwise/", y, {hidden, hidden, 3, spec.stride, hidden});
    y = relu6(b, prefix + "depthwise/relu6", y, bounds);
    y = convBn(b, prefix + "project/", y, {hidden, spec.outChannels, 1, 1});
    if (spec.stride == 1 && spec.inChannels == spec.outChannels) {
        y = b.node("Add", prefix + "add", {x, y});
    }
    return y;
}

} // namespace

onnx::ModelProto makeMobilenetTiny() {
    OnnxBuilder b("mobilenet_tiny", kSeed);
    b.addInput("image", {std::string("N"), 3, 64, 64});
    const Relu6Bounds bounds{b.floatInitializer("relu6.min", {}, {0.0f}),
                             b.floatInitializer("relu6.max", {}, {6.0f})};

    std::string x = convBn(b, "stem/", "image", {3, 16, 3, 2});
    x = relu6(b, "stem/relu6", x, bounds);
    x = invertedResidual(b, "block1/", x, {16, 16, 1}, bounds);
    x = invertedResidual(b, "block2/", x, {16, 24, 2}, bounds);
    x = invertedResidual(b, "block3/", x, {24, 24, 1}, bounds);
    x = b.node("GlobalAveragePool", "head/avgpool", {x});
    x = b.node("Flatten", "head/flatten", {x}, {{"axis", std::int64_t{1}}});
    gemm(b, "head/fc", x, 24, kClasses, "logits");

    b.addOutput("logits", {std::string("N"), kClasses});
    return b.finish("Tiny MobileNetV2 (three inverted residual blocks) with random weights, for "
                    "Strata's samples.");
}

} // namespace strata::samples
