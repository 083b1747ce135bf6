// The optional cost fields: paths[].row_overhead_cycles and
// compute.throughput_per_cycle.depthwise_conv and pointwise_conv — read, written back, defaulted
// and rejected.

#include "target/TargetLoader.h"

#include "TargetFixtures.h"
#include "target/TargetWriter.h"

#include <gtest/gtest.h>

namespace strata::test {
namespace {

using Json = nlohmann::json;

TEST(TargetCostFields, AbsentMeansNoRowCostAndConvsFigure) {
    auto loaded = target::parseTarget(smallTarget().dump(), "small.json");
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_EQ(loaded->paths[0].rowOverheadCycles, 0);
    EXPECT_EQ(loaded->throughput.depthwiseConvPerCycle, 0);
    EXPECT_EQ(loaded->throughput.depthwiseConv(), 64); // conv's
    EXPECT_EQ(loaded->throughput.pointwiseConvPerCycle, 0);
    EXPECT_EQ(loaded->throughput.pointwiseConv(), 64);
    const Json written = Json::parse(target::targetToJson(*loaded));
    EXPECT_FALSE(written["paths"][0].contains("row_overhead_cycles"));
    EXPECT_FALSE(written["compute"]["throughput_per_cycle"].contains("depthwise_conv"));
    EXPECT_FALSE(written["compute"]["throughput_per_cycle"].contains("pointwise_conv"));
}

TEST(TargetCostFields, ReadAndWrittenBack) {
    Json doc = smallTarget();
    doc["paths"][1]["row_overhead_cycles"] = 37.5;
    doc["compute"]["throughput_per_cycle"]["depthwise_conv"] = 3;
    doc["compute"]["throughput_per_cycle"]["pointwise_conv"] = 90;
    std::vector<Diagnostic> warnings;
    auto loaded = target::parseTarget(doc.dump(), "small.json", &warnings);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_TRUE(warnings.empty()) << joined(warnings); // known keys, no "unknown field"
    EXPECT_EQ(loaded->paths[0].rowOverheadCycles, 0);
    EXPECT_EQ(loaded->paths[1].rowOverheadCycles, 37.5);
    EXPECT_EQ(loaded->throughput.depthwiseConv(), 3);
    const Json written = Json::parse(target::targetToJson(*loaded));
    EXPECT_EQ(written["paths"][1]["row_overhead_cycles"], 37.5);
    EXPECT_EQ(written["compute"]["throughput_per_cycle"]["depthwise_conv"], 3);
    EXPECT_EQ(loaded->throughput.pointwiseConv(), 90);
    EXPECT_EQ(written["compute"]["throughput_per_cycle"]["pointwise_conv"], 90);
    auto again = target::parseTarget(target::targetToJson(*loaded), "small.json");
    ASSERT_TRUE(again.ok()) << joined(again.diagnostics());
    EXPECT_TRUE(*again == *loaded);
}

TEST(TargetCostFields, NegativeRowOverheadIsAnErrorAtItsField) {
    Json doc = smallTarget();
    doc["paths"][1]["row_overhead_cycles"] = -4;
    EXPECT_TRUE(reportsError(rejected(doc), "paths[1].row_overhead_cycles", "must not be negative, got -4"));
}

TEST(TargetCostFields, RowOverheadOfTheWrongTypeOrImplausible) {
    Json doc = smallTarget();
    doc["paths"][0]["row_overhead_cycles"] = "ten";
    doc["paths"][1]["row_overhead_cycles"] = 1e12;
    const auto diagnostics = rejected(doc);
    EXPECT_TRUE(reportsError(diagnostics, "paths[0].row_overhead_cycles", "expected a number"));
    EXPECT_TRUE(reportsError(diagnostics, "paths[1].row_overhead_cycles", "implausible row overhead"));
}

TEST(TargetCostFields, DepthwiseThroughputMustBePositive) {
    for (double bad : {0.0, -2.0}) {
        Json doc = smallTarget();
        doc["compute"]["throughput_per_cycle"]["depthwise_conv"] = bad;
        EXPECT_TRUE(reportsError(rejected(doc), "compute.throughput_per_cycle.depthwise_conv", "must be positive"))
            << bad;
    }
    Json doc = smallTarget();
    doc["compute"]["throughput_per_cycle"]["depthwise_conv"] = 5e9;
    EXPECT_TRUE(reportsError(rejected(doc), "compute.throughput_per_cycle.depthwise_conv", "implausible throughput"));
}

TEST(TargetCostFields, PointwiseThroughputMustBeAPositiveNumber) {
    for (double bad : {0.0, -1.5}) {
        Json doc = smallTarget();
        doc["compute"]["throughput_per_cycle"]["pointwise_conv"] = bad;
        EXPECT_TRUE(reportsError(rejected(doc), "compute.throughput_per_cycle.pointwise_conv", "must be positive"))
            << bad;
    }
    Json doc = smallTarget();
    doc["compute"]["throughput_per_cycle"]["pointwise_conv"] = 2e10;
    EXPECT_TRUE(reportsError(rejected(doc), "compute.throughput_per_cycle.pointwise_conv", "implausible throughput"));
    doc["compute"]["throughput_per_cycle"]["pointwise_conv"] = "fast";
    EXPECT_TRUE(reportsError(rejected(doc), "compute.throughput_per_cycle.pointwise_conv", "expected a number"));
}

} // namespace
} // namespace strata::test
