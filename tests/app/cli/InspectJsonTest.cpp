// `strata-cli inspect --json` on the bundled samples: the JSON contract and hand-checked numbers.

#include "CliRunner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace strata::cli::test {
namespace {

using nlohmann::json;
using Shape = std::vector<std::int64_t>;

struct SampleCase {
    std::string file;
    Shape inputShape;
    Shape outputShape;
    std::int64_t parameters; // sum of the elements of the model's initializers
};

// Parses the CLI's stdout; fails the test (and returns null) if it is not JSON.
json inspectJson(const std::vector<std::string>& args) {
    const CliResult r = runCli(args);
    EXPECT_EQ(r.exitCode, 0) << "stderr:\n" << r.err;
    json j = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(j.is_discarded()) << "stdout is not JSON:\n" << r.out;
    return j.is_discarded() ? json() : j;
}

bool nearlyEqual(double a, double b) { return std::abs(a - b) <= 1e-6 * std::max({1.0, std::abs(a), std::abs(b)}); }

const json* findOp(const json& j, const std::string& name) {
    for (const json& op : j["ops"])
        if (op.value("name", "") == name) return &op;
    return nullptr;
}

class InspectJsonTest : public testing::TestWithParam<SampleCase> {};

TEST_P(InspectJsonTest, HasEveryKey) {
    const json j = inspectJson({"inspect", samplePath(GetParam().file), "--json"});
    ASSERT_TRUE(j.is_object());
    for (const char* key : {"nodes", "op_types", "parameters", "flops", "opset", "inputs", "outputs", "ops"})
        EXPECT_TRUE(j.contains(key)) << "missing key " << key;
    EXPECT_TRUE(j["nodes"].is_number_integer());
    EXPECT_TRUE(j["op_types"].is_object());
    EXPECT_TRUE(j["parameters"].is_number_integer());
    EXPECT_TRUE(j["flops"].is_number());
    ASSERT_TRUE(j["inputs"].is_array());
    ASSERT_TRUE(j["outputs"].is_array());
    ASSERT_TRUE(j["ops"].is_array());
    for (const char* list : {"inputs", "outputs"})
        for (const json& v : j[list])
            for (const char* key : {"name", "dtype", "shape"})
                EXPECT_TRUE(v.contains(key)) << list << " entry missing " << key << ": " << v.dump();
    for (const json& op : j["ops"])
        for (const char* key : {"name", "type", "class", "flops", "bytes_read", "bytes_written", "parameters",
                                "output_shapes"})
            EXPECT_TRUE(op.contains(key)) << "op missing " << key << ": " << op.dump();
}

TEST_P(InspectJsonTest, CountsAreConsistent) {
    const json j = inspectJson({"inspect", samplePath(GetParam().file), "--json"});
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["nodes"].get<std::size_t>(), j["ops"].size());

    std::int64_t typeTotal = 0;
    for (const auto& [type, count] : j["op_types"].items()) typeTotal += count.get<std::int64_t>();
    EXPECT_EQ(typeTotal, j["nodes"].get<std::int64_t>());

    double opFlops = 0;
    for (const json& op : j["ops"]) opFlops += op["flops"].get<double>();
    EXPECT_TRUE(nearlyEqual(j["flops"].get<double>(), opFlops))
        << "flops " << j["flops"] << " vs sum of ops " << opFlops;
}

TEST_P(InspectJsonTest, ShapesDefaultBatchToOne) {
    const json j = inspectJson({"inspect", samplePath(GetParam().file), "--json"});
    ASSERT_TRUE(j.is_object());
    ASSERT_FALSE(j["inputs"].empty());
    ASSERT_FALSE(j["outputs"].empty());
    EXPECT_EQ(j["inputs"][0]["shape"].get<Shape>(), GetParam().inputShape);
    EXPECT_EQ(j["outputs"][0]["shape"].get<Shape>(), GetParam().outputShape);
}

TEST_P(InspectJsonTest, ShapeSubgraphsAreFolded) {
    const json j = inspectJson({"inspect", samplePath(GetParam().file), "--json"});
    ASSERT_TRUE(j.is_object());
    for (const json& op : j["ops"]) {
        const std::string type = op.value("type", "");
        for (const char* folded : {"Shape", "Gather", "Unsqueeze", "Concat", "Constant", "Identity"})
            EXPECT_NE(type, folded) << "op '" << op.value("name", "") << "' should have been folded";
    }
}

TEST_P(InspectJsonTest, ParametersMatchInitializers) {
    const json j = inspectJson({"inspect", samplePath(GetParam().file), "--json"});
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["parameters"].get<std::int64_t>(), GetParam().parameters);
}

INSTANTIATE_TEST_SUITE_P(Samples, InspectJsonTest,
                         testing::Values(SampleCase{"resnet_tiny.onnx", {1, 3, 64, 64}, {1, 10}, 20282},
                                         SampleCase{"mobilenet_tiny.onnx", {1, 3, 64, 64}, {1, 10}, 14028},
                                         SampleCase{"transformer_block.onnx", {1, 16, 64}, {1, 16, 64}, 49984}),
                         [](const testing::TestParamInfo<SampleCase>& info) {
                             return info.param.file.substr(0, info.param.file.find('.'));
                         });

TEST(InspectJsonResnet, StemConvIsFirstWithHandCountedFlops) {
    const json j = inspectJson({"inspect", samplePath("resnet_tiny.onnx"), "--json"});
    ASSERT_TRUE(j.is_object());
    ASSERT_FALSE(j["ops"].empty());
    const json& stem = j["ops"][0];
    EXPECT_EQ(stem["type"], "Conv");
    EXPECT_EQ(stem["name"], "stem/conv");
    // 2 * Cout * H * W * Cin * kH * kW
    EXPECT_EQ(stem["flops"].get<double>(), 2.0 * 16 * 64 * 64 * 3 * 3 * 3);
    EXPECT_EQ(stem["flops"].get<double>(), 3538944.0);
    EXPECT_EQ(stem["output_shapes"].get<std::vector<Shape>>(), (std::vector<Shape>{{1, 16, 64, 64}}));
}

TEST(InspectJsonResnet, InputShapeOverridesBatchAndSpatialDims) {
    const json j = inspectJson(
        {"inspect", samplePath("resnet_tiny.onnx"), "--json", "--input-shape", "image=2x3x32x32"});
    ASSERT_TRUE(j.is_object());
    ASSERT_FALSE(j["inputs"].empty());
    ASSERT_FALSE(j["outputs"].empty());
    EXPECT_EQ(j["inputs"][0]["shape"].get<Shape>(), (Shape{2, 3, 32, 32}));
    EXPECT_EQ(j["outputs"][0]["shape"].get<Shape>(), (Shape{2, 10}));
    const json* stem = findOp(j, "stem/conv");
    ASSERT_NE(stem, nullptr);
    EXPECT_EQ((*stem)["flops"].get<double>(), 2.0 * 2 * 16 * 32 * 32 * 27);
    EXPECT_EQ((*stem)["output_shapes"].get<std::vector<Shape>>(), (std::vector<Shape>{{2, 16, 32, 32}}));
}

} // namespace
} // namespace strata::cli::test
