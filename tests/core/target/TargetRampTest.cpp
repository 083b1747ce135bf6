// paths[].ramp_bytes and ramp_bytes_per_cycle (also inside weight_reads and cached_reads): the
// start of a stream at its own, slower rate — read, written back, priced by fixedCyclesFor, and
// rejected when malformed; a file without them loads and prices as before.

#include "TargetFixtures.h"
#include "target/TargetLoader.h"
#include "target/TargetWriter.h"

#include <gtest/gtest.h>

namespace strata::test {
namespace {

using Json = nlohmann::json;

TEST(TargetRamp, AFileWithoutOneLoadsAndPricesAsBefore) {
    Json doc = smallTarget();
    doc["paths"][0]["weight_reads"] = {{"bytes_per_cycle", 4}, {"latency_cycles", 300}};
    std::vector<Diagnostic> warnings;
    auto loaded = target::parseTarget(doc.dump(), "small.json", &warnings);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_TRUE(warnings.empty()) << joined(warnings);
    const target::TransferPath& load = loaded->paths[0];
    EXPECT_EQ(load.ramp, target::Ramp{});
    // latency alone before the bytes, at every size and kind of read
    for (double bytes : {0.0, 64.0, 4096.0, 1e7}) {
        EXPECT_EQ(load.fixedCyclesFor(target::ReadKind::Other, bytes), 100);
        EXPECT_EQ(load.fixedCyclesFor(target::ReadKind::Weight, bytes), 300);
        EXPECT_EQ(load.fixedCyclesFor(target::ReadKind::Cached, bytes), 100);
    }
    const Json written = Json::parse(target::targetToJson(*loaded));
    EXPECT_FALSE(written["paths"][0].contains("ramp_bytes"));
    EXPECT_FALSE(written["paths"][0]["weight_reads"].contains("ramp_bytes"));
}

TEST(TargetRamp, ReadPricedAndWrittenBack) {
    Json doc = smallTarget();
    doc["paths"][0]["ramp_bytes"] = 1024;
    doc["paths"][0]["ramp_bytes_per_cycle"] = 4;
    doc["paths"][0]["weight_reads"] = {{"bytes_per_cycle", 8},
                                       {"latency_cycles", 300},
                                       {"ramp_bytes", 4096},
                                       {"ramp_bytes_per_cycle", 2}};
    std::vector<Diagnostic> warnings;
    auto loaded = target::parseTarget(doc.dump(), "small.json", &warnings);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_TRUE(warnings.empty()) << joined(warnings);
    const target::TransferPath& load = loaded->paths[0];
    EXPECT_EQ(load.ramp, (target::Ramp{1024, 4}));
    // 512 bytes at 4 instead of 16 B/cycle: 128 - 32 cycles more; from 1 KiB on, 256 - 64.
    EXPECT_EQ(load.fixedCyclesFor(target::ReadKind::Other, 512), 100 + 96);
    EXPECT_EQ(load.fixedCyclesFor(target::ReadKind::Other, 1 << 20), 100 + 192);
    // Weights: their own ramp against their own bandwidth (4096 / 2 - 4096 / 8).
    EXPECT_EQ(load.fixedCyclesFor(target::ReadKind::Weight, 1 << 20), 300 + 1536);
    // Cached reads without figures of their own are read like the others.
    EXPECT_EQ(load.fixedCyclesFor(target::ReadKind::Cached, 512), 100 + 96);
    const Json written = Json::parse(target::targetToJson(*loaded));
    EXPECT_EQ(written["paths"][0]["ramp_bytes"], 1024);
    EXPECT_EQ(written["paths"][0]["weight_reads"]["ramp_bytes_per_cycle"], 2);
    auto again = target::parseTarget(target::targetToJson(*loaded), "small.json");
    ASSERT_TRUE(again.ok()) << joined(again.diagnostics());
    EXPECT_TRUE(*again == *loaded);
}

TEST(TargetRamp, BadFiguresAreErrorsAtTheirFields) {
    Json doc = smallTarget();
    doc["paths"][0]["ramp_bytes"] = 1024;
    EXPECT_TRUE(reportsError(rejected(doc), "paths[0].ramp_bytes_per_cycle", "must be positive"));
    doc["paths"][0]["ramp_bytes_per_cycle"] = 32; // faster than the path's 16
    EXPECT_TRUE(reportsError(rejected(doc), "paths[0].ramp_bytes_per_cycle", "no faster than"));
    doc["paths"][0]["ramp_bytes"] = -5;
    doc["paths"][0]["ramp_bytes_per_cycle"] = 4;
    EXPECT_TRUE(reportsError(rejected(doc), "paths[0].ramp_bytes", "must not be negative"));
    doc = smallTarget();
    doc["paths"][0]["weight_reads"] = {{"bytes_per_cycle", 8},
                                       {"latency_cycles", 300},
                                       {"ramp_bytes", 4096},
                                       {"ramp_bytes_per_cycle", 9}};
    EXPECT_TRUE(reportsError(rejected(doc), "paths[0].weight_reads.ramp_bytes_per_cycle",
                             "no faster than"));
}

} // namespace
} // namespace strata::test
