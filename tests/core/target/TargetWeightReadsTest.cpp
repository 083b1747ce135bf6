// paths[].weight_reads, cached_reads and cached_writes: a path's own latency and bandwidth for
// reads of the model's weights and of bytes still in the core's cache, and for stores into lines
// it holds — read, written back, used by bytesPerCycleFor/latencyCyclesFor, and rejected when
// malformed.

#include "target/TargetLoader.h"

#include "TargetFixtures.h"
#include "target/TargetWriter.h"

#include <gtest/gtest.h>

namespace strata::test {
namespace {

using Json = nlohmann::json;

TEST(TargetWeightReads, AbsentMeansWeightsAreReadLikeAnyTensor) {
    auto loaded = target::parseTarget(smallTarget().dump(), "small.json");
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    const target::TransferPath& load = loaded->paths[0];
    EXPECT_FALSE(load.weightReads.has_value());
    EXPECT_FALSE(load.cachedReads.has_value());
    for (auto kind : {target::ReadKind::Weight, target::ReadKind::Cached}) {
        EXPECT_EQ(load.bytesPerCycleFor(kind), 16);
        EXPECT_EQ(load.latencyCyclesFor(kind), 100);
    }
    const Json written = Json::parse(target::targetToJson(*loaded));
    EXPECT_FALSE(written["paths"][0].contains("weight_reads"));
    EXPECT_FALSE(written["paths"][0].contains("cached_reads"));
}

TEST(TargetWeightReads, ReadUsedAndWrittenBack) {
    Json doc = smallTarget();
    doc["paths"][0]["weight_reads"] = {{"bytes_per_cycle", 4.5}, {"latency_cycles", 0}};
    doc["paths"][0]["cached_reads"] = {{"bytes_per_cycle", 40}, {"latency_cycles", 30}};
    std::vector<Diagnostic> warnings;
    auto loaded = target::parseTarget(doc.dump(), "small.json", &warnings);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_TRUE(warnings.empty()) << joined(warnings);
    const target::TransferPath& load = loaded->paths[0];
    EXPECT_EQ(load.bytesPerCycleFor(target::ReadKind::Weight), 4.5);
    EXPECT_EQ(load.latencyCyclesFor(target::ReadKind::Weight), 0); // a latency of 0 is a figure, not "absent"
    EXPECT_EQ(load.bytesPerCycleFor(target::ReadKind::Cached), 40);
    EXPECT_EQ(load.latencyCyclesFor(target::ReadKind::Cached), 30);
    EXPECT_EQ(load.bytesPerCycleFor(target::ReadKind::Other), 16);
    EXPECT_EQ(load.latencyCyclesFor(target::ReadKind::Other), 100);
    const Json written = Json::parse(target::targetToJson(*loaded));
    EXPECT_EQ(written["paths"][0]["weight_reads"]["bytes_per_cycle"], 4.5);
    EXPECT_EQ(written["paths"][0]["weight_reads"]["latency_cycles"], 0);
    EXPECT_EQ(written["paths"][0]["cached_reads"]["bytes_per_cycle"], 40);
    auto again = target::parseTarget(target::targetToJson(*loaded), "small.json");
    ASSERT_TRUE(again.ok()) << joined(again.diagnostics());
    EXPECT_TRUE(*again == *loaded);
}

TEST(TargetWeightReads, MissingOrBadFiguresAreErrorsAtTheirFields) {
    Json doc = smallTarget();
    doc["paths"][0]["weight_reads"] = {{"bytes_per_cycle", 0}};
    auto diagnostics = rejected(doc);
    EXPECT_TRUE(reportsError(diagnostics, "paths[0].weight_reads.bytes_per_cycle", "must be positive, got 0"));
    EXPECT_TRUE(reportsError(diagnostics, "paths[0].weight_reads.latency_cycles", "missing"));

    doc["paths"][0]["weight_reads"] = {{"bytes_per_cycle", "fast"}, {"latency_cycles", -3}};
    diagnostics = rejected(doc);
    EXPECT_TRUE(reportsError(diagnostics, "paths[0].weight_reads.bytes_per_cycle", "expected a number"));
    EXPECT_TRUE(reportsError(diagnostics, "paths[0].weight_reads.latency_cycles", "must not be negative, got -3"));

    doc["paths"][0]["weight_reads"] = 12;
    EXPECT_TRUE(reportsError(rejected(doc), "paths[0].weight_reads", "expected an object"));

    doc = smallTarget();
    doc["paths"][0]["cached_reads"] = {{"bytes_per_cycle", -1}, {"latency_cycles", 1e12}};
    diagnostics = rejected(doc);
    EXPECT_TRUE(reportsError(diagnostics, "paths[0].cached_reads.bytes_per_cycle", "must be positive, got -1"));
    EXPECT_TRUE(reportsError(diagnostics, "paths[0].cached_reads.latency_cycles", "implausible latency"));
}

TEST(TargetWeightReads, OnlyAPathReadingMainMemoryHasThem) {
    for (const char* key : {"weight_reads", "cached_reads", "shared_reads", "warm_weight_reads"}) {
        Json doc = smallTarget();
        doc["paths"][1][key] = {{"bytes_per_cycle", 4}, {"latency_cycles", 300}};
        EXPECT_TRUE(reportsError(rejected(doc), std::string("paths[1].") + key,
                                 std::string("only a path reading main memory has ") + key + ", but 'sram' is sram"));
    }
}

TEST(TargetWeightReads, OnlyAPathWritingMainMemoryHasCachedWrites) {
    Json doc = smallTarget();
    doc["paths"][0]["cached_writes"] = {{"bytes_per_cycle", 40}, {"latency_cycles", 30}};
    EXPECT_TRUE(
        reportsError(rejected(doc), "paths[0].cached_writes",
                     "only a path writing main memory has cached_writes, but 'sram' is sram"));
    doc = smallTarget();
    doc["paths"][1]["cached_writes"] = {{"bytes_per_cycle", 0}, {"latency_cycles", 30}};
    EXPECT_TRUE(reportsError(rejected(doc), "paths[1].cached_writes.bytes_per_cycle",
                             "must be positive, got 0"));
}

TEST(TargetWeightReads, SharedReadsAreReadWrittenBackAndChecked) {
    Json doc = smallTarget();
    doc["paths"][0]["shared_reads"] = {{"bytes_per_cycle", 8}, {"latency_cycles", 690}};
    std::vector<Diagnostic> warnings;
    auto loaded = target::parseTarget(doc.dump(), "small.json", &warnings);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_TRUE(warnings.empty()) << joined(warnings);
    const target::TransferPath& load = loaded->paths[0];
    EXPECT_EQ(load.bytesPerCycleFor(target::ReadKind::Shared), 8);
    EXPECT_EQ(load.latencyCyclesFor(target::ReadKind::Shared), 690);
    const Json written = Json::parse(target::targetToJson(*loaded));
    EXPECT_EQ(written["paths"][0]["shared_reads"]["latency_cycles"], 690);
    doc["paths"][0]["shared_reads"]["latency_cycles"] = -1;
    EXPECT_TRUE(reportsError(rejected(doc), "paths[0].shared_reads.latency_cycles",
                             "must not be negative, got -1"));
}

TEST(TargetWeightReads, CachedWritesAreReadAndWrittenBack) {
    Json doc = smallTarget();
    doc["paths"][1]["cached_writes"] = {{"bytes_per_cycle", 40}, {"latency_cycles", 30}};
    std::vector<Diagnostic> warnings;
    auto loaded = target::parseTarget(doc.dump(), "small.json", &warnings);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_TRUE(warnings.empty()) << joined(warnings);
    const target::TransferPath& store = loaded->paths[1];
    ASSERT_TRUE(store.cachedWrites.has_value());
    EXPECT_EQ(store.bytesPerCycleFor(target::ReadKind::CachedWrite), 40);
    EXPECT_EQ(store.latencyCyclesFor(target::ReadKind::CachedWrite), 30);
    EXPECT_EQ(store.bytesPerCycleFor(target::ReadKind::Other), store.bytesPerCycle);
    const Json written = Json::parse(target::targetToJson(*loaded));
    EXPECT_EQ(written["paths"][1]["cached_writes"]["bytes_per_cycle"], 40);
    EXPECT_FALSE(written["paths"][0].contains("cached_writes"));
}

TEST(TargetWeightReads, WarmWeightFiguresAndTheirFootprintAreReadAndWrittenBack) {
    Json doc = smallTarget();
    doc["paths"][0]["weight_reads"] = {{"bytes_per_cycle", 4}, {"latency_cycles", 300}};
    doc["paths"][0]["warm_weight_reads"] = {{"bytes_per_cycle", 9}, {"latency_cycles", 60}};
    doc["paths"][0]["warm_weight_bytes"] = 33554432;
    std::vector<Diagnostic> warnings;
    auto loaded = target::parseTarget(doc.dump(), "small.json", &warnings);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_TRUE(warnings.empty()) << joined(warnings);
    const target::TransferPath& load = loaded->paths[0];
    ASSERT_TRUE(load.warmWeightReads.has_value());
    EXPECT_EQ(load.warmWeightReads->bytesPerCycle, 9);
    EXPECT_EQ(load.warmWeightBytes, 33554432);
    // The weight kind's own figures stay the cold ones (the emulator picks per model).
    EXPECT_EQ(load.bytesPerCycleFor(target::ReadKind::Weight), 4);
    const Json written = Json::parse(target::targetToJson(*loaded));
    EXPECT_EQ(written["paths"][0]["warm_weight_reads"]["latency_cycles"], 60);
    EXPECT_EQ(written["paths"][0]["warm_weight_bytes"], 33554432);
    auto again = target::parseTarget(target::targetToJson(*loaded), "small.json");
    ASSERT_TRUE(again.ok()) << joined(again.diagnostics());
    EXPECT_TRUE(*again == *loaded);
}

TEST(TargetWeightReads, WarmWeightFiguresNeedTheColdOnesAndAFootprint) {
    Json doc = smallTarget();
    doc["paths"][0]["warm_weight_reads"] = {{"bytes_per_cycle", 9}, {"latency_cycles", 60}};
    const auto diagnostics = rejected(doc);
    EXPECT_TRUE(reportsError(diagnostics, "paths[0].warm_weight_reads", "needs weight_reads"));
    EXPECT_TRUE(reportsError(diagnostics, "paths[0].warm_weight_bytes", "must be positive, got 0"));
}

TEST(TargetWeightReads, AnUnknownKeyInsideIsAWarning) {
    Json doc = smallTarget();
    doc["paths"][0]["weight_reads"] = {{"bytes_per_cycle", 4}, {"latency_cycles", 300}, {"latncy", 1}};
    std::vector<Diagnostic> warnings;
    auto loaded = target::parseTarget(doc.dump(), "small.json", &warnings);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    ASSERT_EQ(warnings.size(), 1u) << joined(warnings);
    EXPECT_EQ(warnings[0].where.field, "paths[0].weight_reads.latncy");
}

} // namespace
} // namespace strata::test
