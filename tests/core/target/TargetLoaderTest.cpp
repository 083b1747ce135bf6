// Presets, the write/load round trip, and resolving names and paths.

#include "target/TargetLoader.h"

#include "TargetFixtures.h"
#include "target/HostProbe.h"
#include "target/TargetValidation.h"
#include "target/TargetWriter.h"

#include <gtest/gtest.h>

namespace strata::test {
namespace {

using target::Scope;

target::Target preset(const std::string& name) {
    std::vector<Diagnostic> warnings;
    auto target = target::resolveTarget(name, {}, &warnings);
    EXPECT_TRUE(target.ok()) << (target.ok() ? "" : joined(target.diagnostics()));
    EXPECT_TRUE(warnings.empty()) << joined(warnings);
    return target.ok() ? *target : target::Target{};
}

TEST(TargetPresets, NamesInOrder) {
    EXPECT_EQ(target::presetNames(), (std::vector<std::string>{"mncore2", "mlu100", "host"}));
}

TEST(TargetPresets, EveryPresetLoadsAndValidates) {
    for (const std::string& name : target::presetNames()) {
        SCOPED_TRACE(name);
        const target::Target t = preset(name);
        EXPECT_EQ(t.name, name);
        EXPECT_EQ(t.source, "preset:" + name);
        EXPECT_TRUE(target::validateTarget(t, t.source).empty());
        EXPECT_GT(t.workingMemoryBytes(), 0u);
        EXPECT_NE(t.pathBetween(t.mainMemory, t.workingMemory), nullptr);
        EXPECT_NE(t.pathBetween(t.workingMemory, t.mainMemory), nullptr);
        // Every preset says where its figures come from.
        for (const auto& memory : t.memories) EXPECT_FALSE(memory.note.empty()) << memory.name;
        for (const auto& path : t.paths) EXPECT_FALSE(path.note.empty()) << path.name;
    }
}

TEST(TargetPresets, MnCore2) {
    const target::Target t = preset("mncore2");
    EXPECT_EQ(t.groups, 4);
    EXPECT_EQ(t.coresPerGroup, 2);
    EXPECT_EQ(t.maxMp(), 8);
    EXPECT_EQ(t.workingMemory, "L2BM");
    EXPECT_EQ(t.mainMemory, "DRAM");
    ASSERT_NE(t.findMemory("PDM"), nullptr);
    EXPECT_EQ(t.findMemory("PDM")->scope, Scope::Group);
    EXPECT_EQ(t.findMemory("DRAM")->scope, Scope::Group);
    EXPECT_EQ(t.instancesOf(t.findMemory("L2BM")->scope), 8);

    const target::TransferPath* mvp = t.findPath("mvp");
    const target::TransferPath* mvb = t.findPath("mvb");
    ASSERT_TRUE(mvp && mvb);
    EXPECT_FALSE(mvp->broadcast);
    EXPECT_TRUE(mvb->broadcast);
    EXPECT_EQ(t.pathBetween("DRAM", "L2BM"), mvp); // the broadcast is never the plain path
    // mvp and mvb compete for the same per-group DRAM port.
    EXPECT_EQ(mvp->resources, std::vector<std::string>{"dram_port"});
    EXPECT_EQ(mvb->resources, std::vector<std::string>{"dram_port"});
    EXPECT_EQ(t.findResource("dram_port")->scope, Scope::Group);
    EXPECT_NE(t.findPath("mvp_store"), nullptr);
    EXPECT_NE(t.pathBetween("DRAM", "PDM"), nullptr);
    EXPECT_NE(t.pathBetween("PDM", "L2BM"), nullptr);
}

TEST(TargetPresets, Mlu100) {
    const target::Target t = preset("mlu100");
    EXPECT_EQ(t.cores(), 32);
    EXPECT_EQ(t.findMemory("DRAM")->scope, Scope::Chip);
    EXPECT_EQ(t.findPath("load")->resources, t.findPath("store")->resources);
}

TEST(TargetPresets, HostIsCompletedByTheProbe) {
    const target::Target t = preset("host");
    const target::HostFacts facts = target::probeHost();
    EXPECT_EQ(t.groups, 1);
    EXPECT_EQ(t.coresPerGroup, facts.cpus);
    EXPECT_EQ(t.workingMemoryBytes(), facts.scratchBytesPerCore());
    EXPECT_EQ(t.findMemory(t.mainMemory)->capacityBytes, facts.memoryBytes);
    if (facts.maxClockHz > 0) {
        EXPECT_EQ(t.clockHz, facts.maxClockHz);
    }
    EXPECT_FALSE(t.calibrated);
    EXPECT_NE(t.description.find("Probed on this machine"), std::string::npos) << t.description;
    EXPECT_NE(t.findPath("load")->note.find("placeholder until `strata-cli calibrate`"),
              std::string::npos);
}

TEST(TargetPresets, HostCopiesAreIssuerBusy) {
    // A CPU has no DMA engine: its own thread copies the bytes. Accelerators' paths are async.
    const target::Target host = preset("host");
    EXPECT_TRUE(host.findPath("load")->issuerBusy);
    EXPECT_TRUE(host.findPath("store")->issuerBusy);
    for (const std::string name : {"mncore2", "mlu100"})
        for (const auto& path : preset(name).paths) EXPECT_FALSE(path.issuerBusy) << name << " " << path.name;
}

TEST(TargetLoader, IssuerBusyReadAndWritten) {
    nlohmann::json doc = smallTarget();
    doc["paths"][1]["issuer_busy"] = true;
    auto loaded = target::parseTarget(doc.dump(), "small.json");
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_FALSE(loaded->paths[0].issuerBusy); // absent: false
    EXPECT_TRUE(loaded->paths[1].issuerBusy);
    const auto written = nlohmann::json::parse(target::targetToJson(*loaded));
    EXPECT_FALSE(written["paths"][0].contains("issuer_busy"));
    EXPECT_EQ(written["paths"][1]["issuer_busy"], true);
}

TEST(TargetLoader, ConcurrentSlowdownReadWrittenAndChecked) {
    nlohmann::json doc = smallTarget();
    const std::string other = doc["paths"][0]["name"];
    doc["paths"][1]["concurrent_slowdown"] = {{{"other", other}, {"factor", 1.4}}};
    auto loaded = target::parseTarget(doc.dump(), "small.json");
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_TRUE(loaded->paths[0].concurrentSlowdown.empty()); // absent: none
    EXPECT_EQ(loaded->paths[1].concurrentSlowdown.at(other), 1.4);
    auto again = target::parseTarget(target::targetToJson(*loaded), "small.json");
    ASSERT_TRUE(again.ok()) << joined(again.diagnostics());
    EXPECT_TRUE(*again == *loaded);
    doc["paths"][1]["concurrent_slowdown"] = {{{"other", "nowhere"}, {"factor", 1.4}}};
    EXPECT_FALSE(target::parseTarget(doc.dump(), "small.json").ok());
    doc["paths"][1]["concurrent_slowdown"] = {{{"other", other}, {"factor", 0.5}}};
    EXPECT_FALSE(target::parseTarget(doc.dump(), "small.json").ok());
}

TEST(TargetRoundTrip, WriteThenLoadGivesTheSameTarget) {
    for (const std::string& name : target::presetNames()) {
        SCOPED_TRACE(name);
        const target::Target original = preset(name);
        const std::string text = target::targetToJson(original);
        auto loaded = target::parseTarget(text, original.source);
        ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics()) << "\n" << text;
        EXPECT_TRUE(*loaded == original) << text;
        EXPECT_EQ(target::targetToJson(*loaded), text);
    }
}

TEST(TargetRoundTrip, SmallTargetThroughAFile) {
    TempDir dir;
    auto original = target::parseTarget(smallTarget().dump(), "small.json");
    ASSERT_TRUE(original.ok()) << joined(original.diagnostics());
    const auto path = dir.write("small.json", target::targetToJson(*original)).string();
    auto loaded = target::resolveTarget(path);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_EQ(loaded->source, path);
    loaded->source = original->source;
    EXPECT_TRUE(*loaded == *original);
}

TEST(TargetResolve, CalibratedHostFileWinsWhenPresent) {
    TempDir dir;
    nlohmann::json doc = smallTarget();
    doc["name"] = "host";
    doc["calibrated"] = true;
    const auto path = dir.write("host.calibrated.json", doc.dump()).string();

    auto calibrated = target::resolveTarget("host", {.calibratedHostFile = path});
    ASSERT_TRUE(calibrated.ok()) << joined(calibrated.diagnostics());
    EXPECT_TRUE(calibrated->calibrated);
    EXPECT_EQ(calibrated->source, path);

    auto fallback =
        target::resolveTarget("host", {.calibratedHostFile = (dir.path() / "none.json").string()});
    ASSERT_TRUE(fallback.ok());
    EXPECT_EQ(fallback->source, "preset:host");
}

} // namespace
} // namespace strata::test
