// The optional model terms calibration fits (docs/TARGETS.md): compute.overhead_cycles.conv_output
// and depthwise_row, compute.throughput_per_cycle.transcendental, layer_norm and global_pool,
// compute.one_core_work_factor, compute.join_skew — read, written back, defaulted and rejected with
// their field named.

#include "target/TargetLoader.h"

#include "TargetFixtures.h"
#include "target/TargetWriter.h"

#include <gtest/gtest.h>

namespace strata::test {
namespace {

using Json = nlohmann::json;

TEST(TargetModelTerms, AbsentMeansNoUnitCostsAndElementwisesFigure) {
    auto loaded = target::parseTarget(smallTarget().dump(), "small.json");
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_EQ(loaded->overheads.convOutputCycles, 0);
    EXPECT_EQ(loaded->overheads.depthwiseRowCycles, 0);
    EXPECT_EQ(loaded->throughput.transcendentalPerCycle, 0);
    EXPECT_EQ(loaded->throughput.transcendental(), loaded->throughput.of(ir::OpClass::Elementwise));
    EXPECT_EQ(loaded->throughput.layerNormPerCycle, 0);
    EXPECT_EQ(loaded->throughput.layerNorm(), loaded->throughput.of(ir::OpClass::Normalization));
    EXPECT_EQ(loaded->throughput.sigmoid(), loaded->throughput.transcendental());
    const Json written = Json::parse(target::targetToJson(*loaded));
    EXPECT_FALSE(written["compute"]["throughput_per_cycle"].contains("layer_norm"));
    EXPECT_FALSE(written["compute"]["overhead_cycles"].contains("conv_output"));
    EXPECT_FALSE(written["compute"]["overhead_cycles"].contains("depthwise_row"));
    EXPECT_FALSE(written["compute"]["throughput_per_cycle"].contains("transcendental"));
}

TEST(TargetModelTerms, ReadAndWrittenBack) {
    Json doc = smallTarget();
    doc["compute"]["overhead_cycles"]["conv_output"] = 1.75;
    doc["compute"]["overhead_cycles"]["depthwise_row"] = 42;
    doc["compute"]["throughput_per_cycle"]["transcendental"] = 0.0625;
    doc["compute"]["throughput_per_cycle"]["layer_norm"] = 0.375;
    doc["compute"]["throughput_per_cycle"]["sigmoid"] = 0.125;
    doc["compute"]["overhead_cycles"]["grouped_conv_element"] = 24;
    doc["compute"]["overhead_cycles"]["matmul_product"] = 2500;
    doc["compute"]["overhead_cycles"]["resize_row"] = 30;
    doc["compute"]["overhead_cycles"]["copy_run"] = 5.5;
    std::vector<Diagnostic> warnings;
    auto loaded = target::parseTarget(doc.dump(), "small.json", &warnings);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_TRUE(warnings.empty()) << joined(warnings); // known keys, no "unknown field"
    EXPECT_EQ(loaded->overheads.convOutputCycles, 1.75);
    EXPECT_EQ(loaded->overheads.depthwiseRowCycles, 42);
    EXPECT_EQ(loaded->throughput.transcendental(), 0.0625);
    const Json written = Json::parse(target::targetToJson(*loaded));
    EXPECT_EQ(written["compute"]["overhead_cycles"]["conv_output"], 1.75);
    EXPECT_EQ(written["compute"]["overhead_cycles"]["depthwise_row"], 42);
    EXPECT_EQ(written["compute"]["throughput_per_cycle"]["transcendental"], 0.0625);
    EXPECT_EQ(loaded->throughput.layerNorm(), 0.375);
    EXPECT_EQ(written["compute"]["throughput_per_cycle"]["layer_norm"], 0.375);
    EXPECT_EQ(loaded->throughput.sigmoid(), 0.125);
    EXPECT_EQ(written["compute"]["throughput_per_cycle"]["sigmoid"], 0.125);
    EXPECT_EQ(loaded->overheads.groupedConvElementCycles, 24);
    EXPECT_EQ(written["compute"]["overhead_cycles"]["grouped_conv_element"], 24);
    EXPECT_EQ(loaded->overheads.matmulProductCycles, 2500);
    EXPECT_EQ(written["compute"]["overhead_cycles"]["matmul_product"], 2500);
    EXPECT_EQ(loaded->overheads.resizeRowCycles, 30);
    EXPECT_EQ(written["compute"]["overhead_cycles"]["resize_row"], 30);
    EXPECT_EQ(loaded->overheads.copyRunCycles, 5.5);
    EXPECT_EQ(written["compute"]["overhead_cycles"]["copy_run"], 5.5);
    auto again = target::parseTarget(target::targetToJson(*loaded), "small.json");
    ASSERT_TRUE(again.ok()) << joined(again.diagnostics());
    EXPECT_TRUE(*again == *loaded);
}

// A calibration from before grouped convolutions ran on oneDNN's grouped kernel carries
// grouped_conv_row: it still loads, with a warning at that field that says to calibrate again,
// and the cost is neither used nor written back.
TEST(TargetModelTerms, TheRetiredGroupedConvRowCostSaysToCalibrateAgain) {
    Json doc = smallTarget();
    doc["compute"]["overhead_cycles"]["grouped_conv_row"] = 15.7;
    std::vector<Diagnostic> warnings;
    auto loaded = target::parseTarget(doc.dump(), "old.json", &warnings);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    ASSERT_EQ(warnings.size(), 1u) << joined(warnings);
    EXPECT_NE(warnings[0].message.find("calibrate again"), std::string::npos)
        << warnings[0].message;
    EXPECT_NE(warnings[0].toString().find("grouped_conv_row"), std::string::npos)
        << warnings[0].toString();
    EXPECT_EQ(loaded->overheads.groupedConvElementCycles, 0);
    const Json written = Json::parse(target::targetToJson(*loaded));
    EXPECT_FALSE(written["compute"]["overhead_cycles"].contains("grouped_conv_row"));
}

TEST(TargetModelTerms, ZeroUnitCostsAreAcceptedAndNotWritten) {
    Json doc = smallTarget();
    doc["compute"]["overhead_cycles"]["conv_output"] = 0;
    doc["compute"]["overhead_cycles"]["depthwise_row"] = 0;
    auto loaded = target::parseTarget(doc.dump(), "small.json");
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    const Json written = Json::parse(target::targetToJson(*loaded));
    EXPECT_FALSE(written["compute"]["overhead_cycles"].contains("conv_output"));
}

TEST(TargetModelTerms, NegativeUnitCostsAreErrorsAtTheirFields) {
    Json doc = smallTarget();
    doc["compute"]["overhead_cycles"]["conv_output"] = -1;
    doc["compute"]["overhead_cycles"]["depthwise_row"] = -30;
    const auto diagnostics = rejected(doc);
    EXPECT_TRUE(reportsError(diagnostics, "compute.overhead_cycles.conv_output", "must not be negative, got -1"));
    EXPECT_TRUE(reportsError(diagnostics, "compute.overhead_cycles.depthwise_row", "must not be negative, got -30"));
}

TEST(TargetModelTerms, UnitCostsOfTheWrongTypeOrImplausible) {
    Json doc = smallTarget();
    doc["compute"]["overhead_cycles"]["conv_output"] = "two";
    doc["compute"]["overhead_cycles"]["depthwise_row"] = 5e7;
    const auto diagnostics = rejected(doc);
    EXPECT_TRUE(reportsError(diagnostics, "compute.overhead_cycles.conv_output", "expected a number"));
    EXPECT_TRUE(reportsError(diagnostics, "compute.overhead_cycles.depthwise_row", "implausible per-row cost"));
}

TEST(TargetModelTerms, TranscendentalThroughputMustBeAPositiveNumber) {
    for (double bad : {0.0, -0.5}) {
        Json doc = smallTarget();
        doc["compute"]["throughput_per_cycle"]["transcendental"] = bad;
        EXPECT_TRUE(reportsError(rejected(doc), "compute.throughput_per_cycle.transcendental",
                                 "must be positive (omit it to use elementwise's figure)"))
            << bad;
    }
    Json doc = smallTarget();
    doc["compute"]["throughput_per_cycle"]["transcendental"] = 3e9;
    EXPECT_TRUE(reportsError(rejected(doc), "compute.throughput_per_cycle.transcendental", "implausible throughput"));
    doc["compute"]["throughput_per_cycle"]["transcendental"] = "slow";
    EXPECT_TRUE(reportsError(rejected(doc), "compute.throughput_per_cycle.transcendental", "expected a number"));
}

TEST(TargetModelTerms, LayerNormThroughputMustBeAPositiveNumber) {
    for (double bad : {0.0, -2.0}) {
        Json doc = smallTarget();
        doc["compute"]["throughput_per_cycle"]["layer_norm"] = bad;
        EXPECT_TRUE(reportsError(rejected(doc), "compute.throughput_per_cycle.layer_norm",
                                 "must be positive (omit it to use normalization's figure)"))
            << bad;
    }
    Json doc = smallTarget();
    doc["compute"]["throughput_per_cycle"]["layer_norm"] = 5e9;
    EXPECT_TRUE(reportsError(rejected(doc), "compute.throughput_per_cycle.layer_norm", "implausible throughput"));
    doc["compute"]["throughput_per_cycle"]["layer_norm"] = nullptr;
    EXPECT_TRUE(reportsError(rejected(doc), "compute.throughput_per_cycle.layer_norm", "expected a number"));
}

TEST(TargetModelTerms, GlobalPoolThroughputDefaultsToPoolingsAndIsWrittenBack) {
    auto plain = target::parseTarget(smallTarget().dump(), "small.json");
    ASSERT_TRUE(plain.ok()) << joined(plain.diagnostics());
    EXPECT_EQ(plain->throughput.globalPoolPerCycle, 0);
    EXPECT_EQ(plain->throughput.globalPool(), plain->throughput.of(ir::OpClass::Pooling));
    EXPECT_FALSE(
        Json::parse(target::targetToJson(*plain))["compute"]["throughput_per_cycle"].contains(
            "global_pool"));

    Json doc = smallTarget();
    doc["compute"]["throughput_per_cycle"]["global_pool"] = 0.28125;
    std::vector<Diagnostic> warnings;
    auto loaded = target::parseTarget(doc.dump(), "small.json", &warnings);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_TRUE(warnings.empty()) << joined(warnings); // a known key
    EXPECT_EQ(loaded->throughput.globalPool(), 0.28125);
    EXPECT_EQ(Json::parse(
                  target::targetToJson(*loaded))["compute"]["throughput_per_cycle"]["global_pool"],
              0.28125);
    auto again = target::parseTarget(target::targetToJson(*loaded), "small.json");
    ASSERT_TRUE(again.ok()) << joined(again.diagnostics());
    EXPECT_TRUE(*again == *loaded);
}

TEST(TargetModelTerms, GlobalPoolThroughputMustBeAPositiveNumber) {
    for (double bad : {0.0, -1.0}) {
        Json doc = smallTarget();
        doc["compute"]["throughput_per_cycle"]["global_pool"] = bad;
        EXPECT_TRUE(reportsError(rejected(doc), "compute.throughput_per_cycle.global_pool",
                                 "must be positive (omit it to use pooling's figure)"))
            << bad;
    }
    Json doc = smallTarget();
    doc["compute"]["throughput_per_cycle"]["global_pool"] = 2e9;
    EXPECT_TRUE(reportsError(rejected(doc), "compute.throughput_per_cycle.global_pool",
                             "implausible throughput"));
    doc["compute"]["throughput_per_cycle"]["global_pool"] = "fast";
    EXPECT_TRUE(reportsError(rejected(doc), "compute.throughput_per_cycle.global_pool",
                             "expected a number"));
}

// Per-byte overheads a target may leave out: absent is no cost and not written; set, read and
// written back; negative, refused.
TEST(TargetModelTerms, PerByteCostsAreReadWrittenBackAndNotNegative) {
    const std::pair<const char*, double target::Overheads::*> terms[] = {
        {"weight_byte", &target::Overheads::weightByteCycles},
        {"reorder_far_byte", &target::Overheads::reorderFarByteCycles}};
    for (const auto& [key, member] : terms) {
        SCOPED_TRACE(key);
        auto plain = target::parseTarget(smallTarget().dump(), "small.json");
        ASSERT_TRUE(plain.ok()) << joined(plain.diagnostics());
        EXPECT_EQ((*plain).overheads.*member, 0);
        EXPECT_FALSE(
            Json::parse(target::targetToJson(*plain))["compute"]["overhead_cycles"].contains(key));
        Json doc = smallTarget();
        doc["compute"]["overhead_cycles"][key] = 0.0625;
        std::vector<Diagnostic> warnings;
        auto loaded = target::parseTarget(doc.dump(), "small.json", &warnings);
        ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
        EXPECT_TRUE(warnings.empty()) << joined(warnings);
        EXPECT_EQ((*loaded).overheads.*member, 0.0625);
        EXPECT_EQ(Json::parse(target::targetToJson(*loaded))["compute"]["overhead_cycles"][key],
                  0.0625);
        doc["compute"]["overhead_cycles"][key] = -0.5;
        EXPECT_TRUE(reportsError(rejected(doc), std::string("compute.overhead_cycles.") + key,
                                 "must not be negative, got -0.5"));
    }
}

TEST(TargetModelTerms, FarWeightByteCostsAndPrivateCacheAreReadAndWrittenBack) {
    auto plain = target::parseTarget(smallTarget().dump(), "small.json");
    ASSERT_TRUE(plain.ok()) << joined(plain.diagnostics());
    EXPECT_EQ(plain->overheads.convFarWeightByteCycles, 0); // absent: no cost
    EXPECT_EQ(plain->privateCacheBytes, 0u);
    Json doc = smallTarget();
    doc["compute"]["overhead_cycles"]["conv_far_weight_byte"] = 0.125;
    doc["compute"]["overhead_cycles"]["matmul_far_weight_byte"] = 0.03125;
    doc["compute"]["private_cache_bytes"] = 1048576;
    std::vector<Diagnostic> warnings;
    auto loaded = target::parseTarget(doc.dump(), "small.json", &warnings);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_TRUE(warnings.empty()) << joined(warnings);
    EXPECT_EQ(loaded->overheads.convFarWeightByteCycles, 0.125);
    EXPECT_EQ(loaded->overheads.matmulFarWeightByteCycles, 0.03125);
    EXPECT_EQ(loaded->privateCacheBytes, 1048576u);
    const Json written = Json::parse(target::targetToJson(*loaded));
    EXPECT_EQ(written["compute"]["overhead_cycles"]["conv_far_weight_byte"], 0.125);
    EXPECT_EQ(written["compute"]["private_cache_bytes"], 1048576);
    doc["compute"]["overhead_cycles"]["matmul_far_weight_byte"] = -1;
    EXPECT_TRUE(reportsError(rejected(doc), "compute.overhead_cycles.matmul_far_weight_byte",
                             "must not be negative, got -1"));
}

TEST(TargetModelTerms, OneCoreWorkFactorIsReadWrittenBackAndBounded) {
    auto plain = target::parseTarget(smallTarget().dump(), "small.json");
    ASSERT_TRUE(plain.ok()) << joined(plain.diagnostics());
    EXPECT_EQ(plain->oneCoreWorkFactor, 1); // absent: a core alone runs as with the others busy
    EXPECT_FALSE(
        Json::parse(target::targetToJson(*plain))["compute"].contains("one_core_work_factor"));
    Json doc = smallTarget();
    doc["compute"]["one_core_work_factor"] = 0.9375;
    std::vector<Diagnostic> warnings;
    auto loaded = target::parseTarget(doc.dump(), "small.json", &warnings);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_TRUE(warnings.empty()) << joined(warnings);
    EXPECT_EQ(loaded->oneCoreWorkFactor, 0.9375);
    EXPECT_EQ(Json::parse(target::targetToJson(*loaded))["compute"]["one_core_work_factor"],
              0.9375);
    doc["compute"]["one_core_work_factor"] = 5;
    EXPECT_TRUE(reportsError(rejected(doc), "compute.one_core_work_factor", "5"));
    doc["compute"]["one_core_work_factor"] = "fast";
    EXPECT_TRUE(reportsError(rejected(doc), "compute.one_core_work_factor", ""));
}

TEST(TargetModelTerms, JoinSkewIsReadWrittenBackAndBounded) {
    auto plain = target::parseTarget(smallTarget().dump(), "small.json");
    ASSERT_TRUE(plain.ok()) << joined(plain.diagnostics());
    EXPECT_EQ(plain->joinSkew.coefficient, 0); // absent: cores finish together
    EXPECT_EQ(plain->joinSkew.cycles(1e6), 0);
    EXPECT_FALSE(Json::parse(target::targetToJson(*plain))["compute"].contains("join_skew"));
    Json doc = smallTarget();
    doc["compute"]["join_skew"] = {{"coefficient", 0.5}, {"exponent", 0.75}};
    std::vector<Diagnostic> warnings;
    auto loaded = target::parseTarget(doc.dump(), "small.json", &warnings);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_TRUE(warnings.empty()) << joined(warnings);
    EXPECT_DOUBLE_EQ(loaded->joinSkew.cycles(1e4), 0.5 * 1000); // 0.5 * 10^4^0.75
    EXPECT_EQ(Json::parse(target::targetToJson(*loaded))["compute"]["join_skew"],
              doc["compute"]["join_skew"]);
    doc["compute"]["join_skew"]["exponent"] = 2;
    EXPECT_TRUE(reportsError(rejected(doc), "compute.join_skew.exponent", "more than 1"));
    doc["compute"]["join_skew"] = {{"coefficient", -3}, {"exponent", 0.5}};
    EXPECT_TRUE(reportsError(rejected(doc), "compute.join_skew.coefficient",
                             "must not be negative, got -3"));
    doc["compute"]["join_skew"] = "late";
    EXPECT_TRUE(reportsError(rejected(doc), "compute.join_skew", ""));
}

} // namespace
} // namespace strata::test
