// Windowed ops (convolutions, pooling) are checked against their schema before onnx's shape
// inference and the kernels see them: each malformed model below crashed one of them or was
// silently accepted before (issue 24). Models are built in code; the diagnostic text is checked.

#include "model/OpValidation.h"

#include "support/TestModels.h"

#include <gtest/gtest.h>
#include <string>

namespace strata {
namespace {

using test::importText;
using test::mentions;

#define EXPECT_REJECTED(result, needle)                                                            \
    do {                                                                                           \
        const auto& r_ = (result);                                                                 \
        ASSERT_FALSE(r_.ok()) << "expected a diagnostic mentioning: " << (needle);                 \
        EXPECT_TRUE(mentions(r_.diagnostics(), needle)) << test::joined(r_.diagnostics());         \
    } while (0)

// A Conv of X with weight W, both graph inputs (the checks read shapes, not values); `attrs` is
// the attribute list in ONNX text syntax (may be empty).
std::string convWithWeightInput(const std::string& input, const std::string& weight,
                                const std::string& attrs) {
    return R"(
<ir_version: 8, opset_import: ["" : 17]>
g ()" + input +
           R"( X, )" + weight + R"( W) => (float Y) {
    Y = Conv)" +
           (attrs.empty() ? "" : " <" + attrs + ">") + R"( (X, W)
}
)";
}

TEST(OpValidation, AValidConvImports) {
    auto r =
        importText(convWithWeightInput("float[1, 4, 8, 8]", "float[8, 2, 3, 3]", "group: int = 2"));
    ASSERT_TRUE(r.ok()) << test::joined(r.diagnostics());
}

TEST(OpValidation, RankZeroInputIntoConvIsRefusedBeforeShapeInference) {
    // SIGSEGV inside onnx's shape inference before.
    EXPECT_REJECTED(importText(convWithWeightInput("float", "float[1, 1, 3, 3]", "")),
                    "has rank 0; it needs rank 3 or more");
}

TEST(OpValidation, KernelShapeRankMustMatchTheInput) {
    // kernel_shape of rank 1 for a 4-D input: SIGSEGV in shape inference before.
    EXPECT_REJECTED(importText(convWithWeightInput("float[1, 1, 8, 8]", "float[1, 1, 3, 3]",
                                                   "kernel_shape: ints = [3]")),
                    "attribute 'kernel_shape' has 1 values; the input's rank 4 needs 2");
}

TEST(OpValidation, WeightRankMustMatchTheInput) {
    EXPECT_REJECTED(importText(convWithWeightInput("float[1, 1, 8, 8]", "float[1, 1, 3]", "")),
                    "weight has rank 3, which does not match the input's rank 4");
}

TEST(OpValidation, KernelShapeMustMatchTheWeight) {
    EXPECT_REJECTED(importText(convWithWeightInput("float[1, 1, 8, 8]", "float[1, 1, 3, 3]",
                                                   "kernel_shape: ints = [5, 5]")),
                    "'kernel_shape' says 5 at spatial axis 0 but the weight has 3");
}

TEST(OpValidation, GroupMustDivideTheChannels) {
    // group 7 on 16 channels was accepted by inspect, emulate and compile.
    EXPECT_REJECTED(importText(convWithWeightInput("float[1, 16, 8, 8]", "float[7, 2, 3, 3]",
                                                   "group: int = 7")),
                    "'group' is 7, which does not divide the input's 16 channels");
}

TEST(OpValidation, HugeGroupIsRefused) {
    // group = 2^40 crashed the conv kernel with SIGFPE.
    EXPECT_REJECTED(importText(convWithWeightInput("float[1, 16, 8, 8]", "float[16, 1, 3, 3]",
                                                   "group: int = 1099511627776")),
                    "'group' has value 1099511627776; it must be between 1 and 1048576");
}

TEST(OpValidation, WeightChannelsMustMatchInputChannelsTimesGroup) {
    EXPECT_REJECTED(importText(convWithWeightInput("float[1, 16, 8, 8]", "float[8, 4, 3, 3]",
                                                   "group: int = 2")),
                    "weight has 4 input channels per group; with group 2 the input needs 8");
}

TEST(OpValidation, UnknownAutoPadIsRefused) {
    EXPECT_REJECTED(importText(convWithWeightInput("float[1, 1, 8, 8]", "float[1, 1, 3, 3]",
                                                   "auto_pad: string = \"BOGUS\"")),
                    "'auto_pad' is 'BOGUS'; it must be NOTSET, SAME_UPPER, SAME_LOWER or VALID");
}

TEST(OpValidation, HugeStridesAreRefused) {
    EXPECT_REJECTED(importText(convWithWeightInput("float[1, 1, 8, 8]", "float[1, 1, 3, 3]",
                                                   "strides: ints = [1099511627776, 1]")),
                    "'strides' has value 1099511627776; it must be between 1 and 1048576");
}

TEST(OpValidation, PadsNeedTwoValuesPerSpatialAxis) {
    EXPECT_REJECTED(importText(convWithWeightInput("float[1, 1, 8, 8]", "float[1, 1, 3, 3]",
                                                   "pads: ints = [1, 1]")),
                    "attribute 'pads' has 2 values; the input's rank 4 needs 4");
}

TEST(OpValidation, PoolingNeedsAKernelShape) {
    EXPECT_REJECTED(importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 1, 8, 8] X) => (float Y) {
    Y = MaxPool (X)
}
)"),
                    "MaxPool has no 'kernel_shape' attribute");
}

TEST(OpValidation, IntermediateValuesAreCheckedAfterShapeInference) {
    // The Conv's input is computed, so only inferred shapes show that group 3 does not divide
    // its 4 channels.
    auto r = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 4, 8, 8] X, float[3, 1, 3, 3] W) => (float Y) {
    R = Relu (X)
    Y = Conv <group: int = 3> (R, W)
}
)");
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(mentions(r.diagnostics(), "group") || mentions(r.diagnostics(), "channels"))
        << test::joined(r.diagnostics());
}

TEST(OpValidation, DiagnosticsNameTheNode) {
    auto r = importText(R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[1, 1, 8, 8] X, float[1, 1, 3, 3] W) => (float Y) {
    Y = Conv <auto_pad: string = "SIDEWAYS"> (X, W)
}
)");
    ASSERT_FALSE(r.ok());
    EXPECT_FALSE(r.diagnostics().front().where.node.empty());
}

} // namespace
} // namespace strata
