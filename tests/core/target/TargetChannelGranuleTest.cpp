// compute.channel_granule (Target::channelGranule): defaulted, read and written back, rejected
// when not a plausible count; the host preset takes it from the probed vector width.

#include "TargetFixtures.h"
#include "target/HostProbe.h"
#include "target/TargetLoader.h"
#include "target/TargetWriter.h"

#include <gtest/gtest.h>

namespace strata::test {
namespace {

using Json = nlohmann::json;

TEST(TargetChannelGranule, AbsentMeansOneAndIsNotWritten) {
    auto loaded = target::parseTarget(smallTarget().dump(), "small.json");
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_EQ(loaded->channelGranule, 1);
    EXPECT_FALSE(Json::parse(target::targetToJson(*loaded))["compute"].contains("channel_granule"));
}

TEST(TargetChannelGranule, ReadAndWrittenBack) {
    Json doc = smallTarget();
    doc["compute"]["channel_granule"] = 16;
    std::vector<Diagnostic> warnings;
    auto loaded = target::parseTarget(doc.dump(), "small.json", &warnings);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_TRUE(warnings.empty()) << joined(warnings); // a known key
    EXPECT_EQ(loaded->channelGranule, 16);
    EXPECT_EQ(Json::parse(target::targetToJson(*loaded))["compute"]["channel_granule"], 16);
    auto again = target::parseTarget(target::targetToJson(*loaded), "small.json");
    ASSERT_TRUE(again.ok()) << joined(again.diagnostics());
    EXPECT_TRUE(*again == *loaded);
}

TEST(TargetChannelGranule, RejectedWhenNotAPlausibleCount) {
    for (int bad : {0, -16}) {
        Json doc = smallTarget();
        doc["compute"]["channel_granule"] = bad;
        EXPECT_TRUE(reportsError(rejected(doc), "compute.channel_granule", "must be at least 1"))
            << bad;
    }
    Json doc = smallTarget();
    doc["compute"]["channel_granule"] = 1 << 20;
    EXPECT_TRUE(
        reportsError(rejected(doc), "compute.channel_granule", "implausible channel granule"));
    doc["compute"]["channel_granule"] = 16.5;
    EXPECT_TRUE(reportsError(rejected(doc), "compute.channel_granule", "integer"));
}

TEST(TargetChannelGranule, HostPresetTakesTheProbedVectorWidth) {
    auto host = target::resolveTarget("host");
    ASSERT_TRUE(host.ok()) << joined(host.diagnostics());
    EXPECT_EQ(host->channelGranule, target::probeHost().vectorFloats);
}

} // namespace
} // namespace strata::test
