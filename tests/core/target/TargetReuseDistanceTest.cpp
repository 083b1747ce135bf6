// cached_reads.by_reuse_distance and cached_writes.by_reuse_distance: the rate of a cached
// transfer by how much traffic its core moved since it last moved those lines — read, priced
// (target::reuseDistanceExtraCycles), written back, and rejected when malformed.

#include "TargetFixtures.h"
#include "target/TargetLoader.h"
#include "target/TargetWriter.h"

#include <gtest/gtest.h>

namespace strata::test {
namespace {

using Json = nlohmann::json;

Json withCurve() {
    Json doc = smallTarget(); // paths[0] reads DRAM, paths[1] writes it
    doc["paths"][0]["cached_reads"] = {
        {"bytes_per_cycle", 64},
        {"latency_cycles", 10},
        {"by_reuse_distance",
         {{{"bytes", 1024}, {"bytes_per_cycle", 32}}, {{"bytes", 4096}, {"bytes_per_cycle", 16}}}}};
    return doc;
}

TEST(TargetReuseDistance, ReadAndWrittenBack) {
    std::vector<Diagnostic> warnings;
    auto loaded = target::parseTarget(withCurve().dump(), "small.json", &warnings);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_TRUE(warnings.empty()) << joined(warnings);
    const auto& figures = loaded->paths[0].cachedReads;
    ASSERT_TRUE(figures);
    EXPECT_EQ(figures->byReuseDistance,
              (std::vector<target::DistanceRate>{{1024, 32}, {4096, 16}}));
    const Json written = Json::parse(target::targetToJson(*loaded));
    EXPECT_EQ(written["paths"][0]["cached_reads"]["by_reuse_distance"][1]["bytes_per_cycle"], 16);
    auto again = target::parseTarget(target::targetToJson(*loaded), "small.json");
    ASSERT_TRUE(again.ok()) << joined(again.diagnostics());
    EXPECT_TRUE(*again == *loaded);
    // A target without the key writes none.
    auto plain = target::parseTarget(smallTarget().dump(), "small.json");
    ASSERT_TRUE(plain.ok());
    EXPECT_EQ(target::targetToJson(*plain).find("by_reuse_distance"), std::string::npos);
}

TEST(TargetReuseDistance, PricedByLogDistanceBetweenPointsAndHeldBeyondThem) {
    target::ReadFigures figures{64, 10, {}, {{1024, 32}, {4096, 16}}};
    // Below the first point its rate: 2048 bytes x (1/32 - 1/64) = 32 cycles more.
    EXPECT_DOUBLE_EQ(target::reuseDistanceExtraCycles(figures, 2048, 0), 32);
    EXPECT_DOUBLE_EQ(target::reuseDistanceExtraCycles(figures, 2048, 1024), 32);
    // Halfway in log2 between 1 KiB and 4 KiB: cycles per byte halfway between 1/32 and 1/16.
    EXPECT_DOUBLE_EQ(target::reuseDistanceExtraCycles(figures, 2048, 2048),
                     2048 * ((1.0 / 32 + 1.0 / 16) / 2 - 1.0 / 64));
    // Past the last point its rate: 2048 x (1/16 - 1/64) = 96.
    EXPECT_DOUBLE_EQ(target::reuseDistanceExtraCycles(figures, 2048, 1 << 20), 96);
    // Bytes past a spill's start pay the spill (the ramp), not the distance.
    figures.ramp = {0, 0, 1024, 8};
    EXPECT_DOUBLE_EQ(target::reuseDistanceExtraCycles(figures, 2048, 1 << 20), 48);
    // No points: nothing.
    EXPECT_EQ(target::reuseDistanceExtraCycles(target::ReadFigures{64, 10}, 2048, 1 << 20), 0);
}

TEST(TargetReuseDistance, BadPointsAreErrorsAtTheirFields) {
    Json doc = withCurve();
    auto& points = doc["paths"][0]["cached_reads"]["by_reuse_distance"];
    points[1]["bytes"] = 512; // not ascending
    EXPECT_TRUE(reportsError(rejected(doc), "paths[0].cached_reads.by_reuse_distance[1].bytes",
                             "must ascend"));
    points[1]["bytes"] = 4096;
    points[0]["bytes_per_cycle"] = 128; // faster than the 64 within the core's cache
    EXPECT_TRUE(reportsError(rejected(doc),
                             "paths[0].cached_reads.by_reuse_distance[0].bytes_per_cycle",
                             "no faster than"));
    points[0]["bytes_per_cycle"] = 0;
    EXPECT_TRUE(reportsError(rejected(doc),
                             "paths[0].cached_reads.by_reuse_distance[0].bytes_per_cycle",
                             "must be positive"));
    Json weights = smallTarget();
    weights["paths"][0]["weight_reads"] = {
        {"bytes_per_cycle", 8},
        {"latency_cycles", 300},
        {"by_reuse_distance", {{{"bytes", 1024}, {"bytes_per_cycle", 4}}}}};
    EXPECT_TRUE(reportsError(rejected(weights), "paths[0].weight_reads.by_reuse_distance",
                             "only cached_reads and cached_writes"));
}

} // namespace
} // namespace strata::test
