#include "NetLayers.h"
#include "SampleModels.h"

namespace strata::samples {
namespace {

constexpr std::uint64_t kSeed = 0x5e5e7001;
constexpr std::int64_t kClasses = 10;

// torchvision's BasicBlock; a stride or width change puts a 1x1 conv + BN on the skip path.
std::string basicBlock(OnnxBuilder& b, const std::string& prefix, const std::string& x,
                       std::int64_t inChannels, std::int64_t outChannels, std::int64_t stride) {
    std::string y = convBn(b, prefix + "conv1/", x, {inChannels, outChannels, 3, stride});
    y = b.node("Relu", prefix + "relu1", {y});
    y = convBn(b, prefix + "conv2/", y, {outChannels, outChannels, 3, 1});
    std::string skip = x;
    if (stride != 1 || inChannels != outChannels) {
        skip = convBn(b, prefix + "downsample/", x, {inChannels, outChannels, 1, stride});
    }
    const std::string sum = b.node("Add", prefix + "add", {y, skip});
    return b.node("Relu", prefix + "relu2", {sum});
}

// torch.flatten(x, 1) as older exporters wrote it: Reshape to [x.shape[0], -1], with the
// target shape computed at run time. Static input shapes make the whole subgraph foldable.
std::string flattenViaShape(OnnxBuilder& b, const std::string& prefix, const std::string& x) {
    const std::string shape = b.node("Shape", prefix + "shape", {x});
    const std::string index = b.constantInt64s(prefix + "batch_index", {}, {0});
    const std::string batch =
        b.node("Gather", prefix + "gather_batch", {shape, index}, {{"axis", std::int64_t{0}}});
    const std::string axes = b.constantInt64s(prefix + "unsqueeze_axes", {1}, {0});
    const std::string batch1d = b.node("Unsqueeze", prefix + "unsqueeze_batch", {batch, axes});
    const std::string rest = b.constantInt64s(prefix + "minus_one", {1}, {-1});
    const std::string target =
        b.node("Concat", prefix + "concat_shape", {batch1d, rest}, {{"axis", std::int64_t{0}}});
    return b.node("Reshape", prefix + "reshape", {x, target});
}

} // namespace

onnx::ModelProto makeResnetTiny() {
    OnnxBuilder b("resnet_tiny", kSeed);
    b.addInput("image", {std::string("N"), 3, 64, 64});

    std::string x = convBn(b, "stem/", "image", {3, 16, 3, 1});
    x = b.node("Relu", "stem/relu", {x});
    x = b.node("MaxPool", "stem/maxpool", {x},
               {{"kernel_shape", std::vector<std::int64_t>{3, 3}},
                {"pads", std::vector<std::int64_t>{1, 1, 1, 1}},
                {"strides", std::vector<std::int64_t>{2, 2}}});
    x = basicBlock(b, "layer1/", x, 16, 16, 1);
    x = basicBlock(b, "layer2/", x, 16, 32, 2);
    x = b.node("GlobalAveragePool", "head/avgpool", {x});
    x = flattenViaShape(b, "head/flatten/", x);
    gemm(b, "head/fc", x, 32, kClasses, "logits");

    b.addOutput("logits", {std::string("N"), kClasses});
    return b.finish("Tiny ResNet (two basic blocks) with random weights, for Strata's samples.");
}

} // namespace strata::samples
