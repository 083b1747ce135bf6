// paths[].spill_bytes and spill_bytes_per_cycle (also inside weight_reads and cached_reads): the
// bytes of a transfer past its spill's start, beyond the core's cache, at their own slower rate —
// read, written back, priced by fixedCyclesFor with a ramp, and rejected when malformed.

#include "TargetFixtures.h"
#include "target/TargetLoader.h"
#include "target/TargetWriter.h"

#include <gtest/gtest.h>

namespace strata::test {
namespace {

using Json = nlohmann::json;

TEST(TargetSpill, ReadPricedAndWrittenBack) {
    Json doc = smallTarget(); // paths[0]: 16 B/cycle after 100 cycles
    doc["paths"][0]["ramp_bytes"] = 1024;
    doc["paths"][0]["ramp_bytes_per_cycle"] = 4;
    doc["paths"][0]["spill_bytes"] = 65536;
    doc["paths"][0]["spill_bytes_per_cycle"] = 8;
    doc["paths"][0]["weight_reads"] = {{"bytes_per_cycle", 8},
                                       {"latency_cycles", 300},
                                       {"spill_bytes", 4096},
                                       {"spill_bytes_per_cycle", 2}};
    std::vector<Diagnostic> warnings;
    auto loaded = target::parseTarget(doc.dump(), "small.json", &warnings);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_TRUE(warnings.empty()) << joined(warnings);
    const target::TransferPath& load = loaded->paths[0];
    EXPECT_EQ(load.ramp, (target::Ramp{1024, 4, 65536, 8}));
    // Up to the spill's start only the ramp: 1024 / 4 - 1024 / 16 = 192 cycles more.
    EXPECT_EQ(load.fixedCyclesFor(target::ReadKind::Other, 65536), 100 + 192);
    // Past it, each byte at 8 instead of 16 B/cycle: 65536 bytes more cost 65536 / 16 more.
    EXPECT_EQ(load.fixedCyclesFor(target::ReadKind::Other, 131072), 100 + 192 + 4096);
    // Weights: their own spill against their own bandwidth, no ramp ((8192 - 4096) x (1/2 - 1/8)).
    EXPECT_EQ(load.fixedCyclesFor(target::ReadKind::Weight, 8192), 300 + 1536);
    EXPECT_EQ(load.fixedCyclesFor(target::ReadKind::Weight, 4096), 300);
    const Json written = Json::parse(target::targetToJson(*loaded));
    EXPECT_EQ(written["paths"][0]["spill_bytes"], 65536);
    EXPECT_EQ(written["paths"][0]["weight_reads"]["spill_bytes_per_cycle"], 2);
    EXPECT_FALSE(written["paths"][0]["weight_reads"].contains("ramp_bytes"));
    auto again = target::parseTarget(target::targetToJson(*loaded), "small.json");
    ASSERT_TRUE(again.ok()) << joined(again.diagnostics());
    EXPECT_TRUE(*again == *loaded);
}

TEST(TargetSpill, BadFiguresAreErrorsAtTheirFields) {
    Json doc = smallTarget();
    doc["paths"][0]["spill_bytes"] = 65536;
    EXPECT_TRUE(reportsError(rejected(doc), "paths[0].spill_bytes_per_cycle", "must be positive"));
    doc["paths"][0]["spill_bytes_per_cycle"] = 32; // faster than the path's 16
    EXPECT_TRUE(reportsError(rejected(doc), "paths[0].spill_bytes_per_cycle", "no faster than"));
    doc["paths"][0]["spill_bytes_per_cycle"] = 8;
    doc["paths"][0]["ramp_bytes"] = 1 << 20; // a ramp ending past the spill's start
    doc["paths"][0]["ramp_bytes_per_cycle"] = 4;
    EXPECT_TRUE(reportsError(rejected(doc), "paths[0].spill_bytes", "after the ramp"));
}

} // namespace
} // namespace strata::test
