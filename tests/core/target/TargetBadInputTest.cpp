// Every rejected target description, each asserting the diagnostic's text and field path.

#include "TargetFixtures.h"
#include "target/TargetLoader.h"

#include <gtest/gtest.h>

namespace strata::test {
namespace {

using Json = nlohmann::json;

TEST(TargetBadInput, MissingClockIsReportedOnce) {
    Json doc = smallTarget();
    doc.erase("clock_hz");
    const auto diagnostics = rejected(doc);
    EXPECT_TRUE(reportsError(diagnostics, "clock_hz", "missing required field"));
    // The default 0 must not also be reported as "must be positive".
    EXPECT_EQ(diagnostics.size(), 1u) << joined(diagnostics);
}

TEST(TargetBadInput, ZeroCapacity) {
    Json doc = smallTarget();
    doc["memories"][1]["capacity_bytes"] = 0;
    EXPECT_TRUE(
        reportsError(rejected(doc), "memories[1].capacity_bytes", "must be positive, got 0"));
}

TEST(TargetBadInput, NegativeBandwidth) {
    Json doc = smallTarget();
    doc["resources"][0]["bytes_per_cycle"] = -32;
    doc["paths"][1]["bytes_per_cycle"] = -1.5;
    const auto diagnostics = rejected(doc);
    EXPECT_TRUE(
        reportsError(diagnostics, "resources[0].bytes_per_cycle", "must be positive, got -32"));
    EXPECT_TRUE(
        reportsError(diagnostics, "paths[1].bytes_per_cycle", "must be positive, got -1.5"));
}

TEST(TargetBadInput, NegativeLatencyAndNoTransfersInFlight) {
    Json doc = smallTarget();
    doc["paths"][0]["latency_cycles"] = -1;
    doc["paths"][0]["max_in_flight"] = 0;
    const auto diagnostics = rejected(doc);
    EXPECT_TRUE(
        reportsError(diagnostics, "paths[0].latency_cycles", "must not be negative, got -1"));
    EXPECT_TRUE(reportsError(diagnostics, "paths[0].max_in_flight", "must be at least 1, got 0"));
}

TEST(TargetBadInput, PathNamesUnknownMemorySpace) {
    Json doc = smallTarget();
    doc["paths"][0]["from"] = "HBM";
    const auto diagnostics = rejected(doc);
    EXPECT_TRUE(reportsError(diagnostics, "paths[0].from",
                             "unknown memory space 'HBM' (memories: dram, sram)"));
}

TEST(TargetBadInput, PathNamesUnknownResource) {
    Json doc = smallTarget();
    doc["paths"][1]["resources"] = {"bus", "crossbar"};
    EXPECT_TRUE(reportsError(rejected(doc), "paths[1].resources[1]",
                             "unknown resource 'crossbar' (resources: bus)"));
}

TEST(TargetBadInput, DuplicateNames) {
    Json doc = smallTarget();
    doc["memories"].push_back(doc["memories"][0]);
    doc["resources"].push_back(doc["resources"][0]);
    doc["paths"].push_back(doc["paths"][1]);
    const auto diagnostics = rejected(doc);
    EXPECT_TRUE(reportsError(diagnostics, "memories[2].name",
                             "duplicate memory name 'dram' (also memories[0])"));
    EXPECT_TRUE(reportsError(diagnostics, "resources[1].name",
                             "duplicate resource name 'bus' (also resources[0])"));
    EXPECT_TRUE(
        reportsError(diagnostics, "paths[2].name", "duplicate path name 'store' (also paths[1])"));
}

TEST(TargetBadInput, AbsurdClock) {
    Json doc = smallTarget();
    doc["clock_hz"] = 5;
    EXPECT_TRUE(reportsError(rejected(doc), "clock_hz",
                             "implausible clock 5 Hz: expected 1 MHz to 100 GHz"));
    doc["clock_hz"] = 2e12;
    EXPECT_TRUE(reportsError(rejected(doc), "clock_hz", "implausible clock 2e+12 Hz"));
}

TEST(TargetBadInput, AbsurdFigures) {
    Json doc = smallTarget();
    doc["memories"][0]["capacity_bytes"] = 1e16;
    doc["resources"][0]["bytes_per_cycle"] = 1e7;
    doc["paths"][0]["latency_cycles"] = 1e10;
    doc["paths"][0]["max_in_flight"] = 5000;
    doc["compute"]["throughput_per_cycle"]["matmul"] = 1e10;
    doc["topology"]["cores_per_group"] = 40000;
    const auto diagnostics = rejected(doc);
    EXPECT_TRUE(reportsError(diagnostics, "memories[0].capacity_bytes", "more than 1 PiB"));
    EXPECT_TRUE(reportsError(diagnostics, "resources[0].bytes_per_cycle", "implausible bandwidth"));
    EXPECT_TRUE(reportsError(diagnostics, "paths[0].latency_cycles", "implausible latency"));
    EXPECT_TRUE(
        reportsError(diagnostics, "paths[0].max_in_flight", "implausible transfers in flight"));
    EXPECT_TRUE(
        reportsError(diagnostics, "compute.throughput_per_cycle.matmul", "implausible throughput"));
    EXPECT_TRUE(reportsError(diagnostics, "topology", "implausible core count 80000"));
}

// A rate so small that every transfer or compute would outlast any run is refused by name, not
// reported later as a deadlock or taken as it is.
TEST(TargetBadInput, VanishingRatesAreRefused) {
    Json doc = smallTarget();
    doc["compute"]["throughput_per_cycle"]["conv"] = 1e-300;
    doc["paths"][0]["bytes_per_cycle"] = 1e-308;
    doc["resources"][0]["bytes_per_cycle"] = 1e-7;
    const auto diagnostics = rejected(doc);
    EXPECT_TRUE(reportsError(diagnostics, "compute.throughput_per_cycle.conv",
                             "implausible throughput 1e-300: less than 1e-06"));
    EXPECT_TRUE(reportsError(diagnostics, "paths[0].bytes_per_cycle",
                             "implausible bandwidth 1e-308: less than 1e-06"));
    EXPECT_TRUE(
        reportsError(diagnostics, "resources[0].bytes_per_cycle", "implausible bandwidth 1e-07"));
}

TEST(TargetBadInput, ZeroCounts) {
    Json doc = smallTarget();
    doc["topology"]["groups"] = 0;
    doc["compute"]["throughput_per_cycle"]["softmax"] = 0;
    const auto diagnostics = rejected(doc);
    EXPECT_TRUE(reportsError(diagnostics, "topology.groups", "must be at least 1, got 0"));
    EXPECT_TRUE(reportsError(diagnostics, "compute.throughput_per_cycle.softmax",
                             "must be positive, got 0"));
}

TEST(TargetBadInput, NewerSchema) {
    Json doc = smallTarget();
    doc["strata_target"] = 2;
    doc["some_future_field"] = true;
    const auto diagnostics = rejected(doc);
    EXPECT_TRUE(reportsError(diagnostics, "strata_target",
                             "written by a newer Strata (target schema 2, this build reads 1)"));
    EXPECT_EQ(diagnostics.size(), 1u) << joined(diagnostics);
}

TEST(TargetBadInput, MissingVersion) {
    Json doc = smallTarget();
    doc.erase("strata_target");
    EXPECT_TRUE(reportsError(rejected(doc), "strata_target", "a Strata target file starts with"));
}

TEST(TargetBadInput, TruncatedFile) {
    TempDir dir;
    const std::string text = smallTarget().dump(2);
    const auto path = dir.write("truncated.json", text.substr(0, text.size() / 2));
    auto target = target::loadTargetFile(path.string());
    ASSERT_FALSE(target.ok());
    const Diagnostic& d = target.diagnostics().front();
    EXPECT_NE(d.message.find("truncated JSON"), std::string::npos) << d.toString();
    EXPECT_EQ(d.where.file, path.string());
    ASSERT_TRUE(d.where.offset.has_value());
    EXPECT_EQ(*d.where.offset, text.size() / 2);
}

TEST(TargetBadInput, ZeroFilledFile) {
    TempDir dir;
    const auto path = dir.write("zeros.json", std::string(4096, '\0'));
    auto target = target::loadTargetFile(path.string());
    ASSERT_FALSE(target.ok());
    EXPECT_TRUE(mentions(target.diagnostics(), "not a JSON file: starts with NUL bytes"));
}

TEST(TargetBadInput, EmptyFile) {
    TempDir dir;
    const auto path = dir.write("empty.json", "");
    auto target = target::loadTargetFile(path.string());
    ASSERT_FALSE(target.ok());
    EXPECT_TRUE(mentions(target.diagnostics(), "empty file"));
}

TEST(TargetBadInput, NotJson) {
    const auto diagnostics = rejected(std::string("name = mncore2\nclock = 1GHz\n"));
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_NE(diagnostics[0].message.find("malformed JSON"), std::string::npos);
    EXPECT_TRUE(diagnostics[0].where.offset.has_value());
}

TEST(TargetBadInput, TopLevelNotAnObject) {
    EXPECT_TRUE(
        reportsError(rejected(std::string("[1, 2, 3]")), "", "expected an object, got an array"));
}

TEST(TargetBadInput, NumberOutOfDoubleRange) {
    std::string text = smallTarget().dump(2);
    const std::string clock = "\"clock_hz\": 1000000000.0";
    ASSERT_NE(text.find(clock), std::string::npos);
    text.replace(text.find(clock), clock.size(), "\"clock_hz\": 1e999");
    const auto diagnostics = rejected(text);
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_NE(diagnostics[0].message.find("number out of range"), std::string::npos);
    EXPECT_EQ(diagnostics[0].where.offset, text.find("1e999"));
}

TEST(TargetBadInput, WrongTypes) {
    Json doc = smallTarget();
    doc["clock_hz"] = "1 GHz";
    doc["topology"]["groups"] = 2.5;
    doc["resources"] = "bus";
    doc["paths"][0]["broadcast"] = "yes";
    doc["paths"][1]["issuer_busy"] = 1;
    doc["paths"][1]["resources"] = {7};
    doc["memories"][1]["kind"] = "flash";
    doc["name"] = nullptr;
    const auto diagnostics = rejected(doc);
    EXPECT_TRUE(reportsError(diagnostics, "clock_hz", "expected a number, got a string"));
    EXPECT_TRUE(reportsError(diagnostics, "topology.groups", "expected an integer, got 2.5"));
    EXPECT_TRUE(reportsError(diagnostics, "resources", "expected an array, got a string"));
    EXPECT_TRUE(
        reportsError(diagnostics, "paths[0].broadcast", "expected a boolean, got a string"));
    EXPECT_TRUE(
        reportsError(diagnostics, "paths[1].issuer_busy", "expected a boolean, got a number"));
    EXPECT_TRUE(
        reportsError(diagnostics, "paths[1].resources[0]", "expected a string, got a number"));
    EXPECT_TRUE(reportsError(diagnostics, "memories[1].kind",
                             "expected \"dram\" or \"sram\", got \"flash\""));
    EXPECT_TRUE(reportsError(diagnostics, "name", "expected a string, got null"));
}

TEST(TargetBadInput, WorkingMemoryMustBeCoreSram) {
    Json doc = smallTarget();
    doc["compute"]["working_memory"] = "dram";
    EXPECT_TRUE(reportsError(rejected(doc), "compute.working_memory",
                             "working memory 'dram' must be an SRAM, it is a dram"));
    doc = smallTarget();
    doc["memories"][1]["scope"] = "group";
    EXPECT_TRUE(reportsError(rejected(doc), "compute.working_memory",
                             "working memory 'sram' must be core-scoped, it is group-scoped"));
}

TEST(TargetBadInput, MainMemoryMustBeDram) {
    Json doc = smallTarget();
    doc["compute"]["main_memory"] = "sram";
    EXPECT_TRUE(
        reportsError(rejected(doc), "compute.main_memory", "must be a DRAM, it is an sram"));
}

TEST(TargetBadInput, BroadcastToChipScopedDestination) {
    Json doc = smallTarget();
    doc["paths"].push_back({{"name", "spray"},
                            {"from", "sram"},
                            {"to", "dram"},
                            {"bytes_per_cycle", 8},
                            {"latency_cycles", 10},
                            {"max_in_flight", 1},
                            {"resources", Json::array()},
                            {"broadcast", true}});
    EXPECT_TRUE(reportsError(rejected(doc), "paths[2].to",
                             "a broadcast path writes every instance of its destination"));
}

TEST(TargetBadInput, NoLoadPath) {
    Json doc = smallTarget();
    doc["paths"].erase(0);
    EXPECT_TRUE(
        reportsError(rejected(doc), "paths",
                     "no non-broadcast path from main memory 'dram' to working memory 'sram'"));
}

TEST(TargetBadInput, AllErrorsAreCollected) {
    Json doc = smallTarget();
    doc.erase("name");
    doc["memories"][0]["capacity_bytes"] = -1;
    doc["paths"][1]["to"] = "nowhere";
    doc["topology"].erase("cores_per_group");
    const auto diagnostics = rejected(doc);
    EXPECT_TRUE(reportsError(diagnostics, "name", "missing required field"));
    EXPECT_TRUE(
        reportsError(diagnostics, "memories[0].capacity_bytes", "must be positive, got -1"));
    EXPECT_TRUE(reportsError(diagnostics, "paths[1].to", "unknown memory space 'nowhere'"));
    EXPECT_TRUE(reportsError(diagnostics, "topology.cores_per_group", "missing required field"));
}

TEST(TargetBadInput, UnknownKeysAreWarningsWithASuggestion) {
    Json doc = smallTarget();
    doc["paths"][0]["latency_cycle"] = 5;
    std::vector<Diagnostic> warnings;
    auto target = target::parseTarget(doc.dump(), "typo.json", &warnings);
    ASSERT_TRUE(target.ok()) << joined(target.diagnostics());
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].severity, Severity::Warning);
    EXPECT_EQ(warnings[0].where.field, "paths[0].latency_cycle");
    EXPECT_NE(warnings[0].message.find("did you mean 'latency_cycles'?"), std::string::npos)
        << warnings[0].toString();
}

TEST(TargetBadInput, NonexistentFile) {
    auto target = target::loadTargetFile("/nonexistent/strata/target.json");
    ASSERT_FALSE(target.ok());
    EXPECT_TRUE(mentions(target.diagnostics(), "file not found"));
    EXPECT_EQ(target.diagnostics()[0].where.file, "/nonexistent/strata/target.json");

    TempDir dir;
    auto directory = target::loadTargetFile(dir.path().string());
    ASSERT_FALSE(directory.ok());
    EXPECT_TRUE(mentions(directory.diagnostics(), "is a directory"));
}

TEST(TargetBadInput, UnknownPresetListsThePresets) {
    auto target = target::resolveTarget("tpu9");
    ASSERT_FALSE(target.ok());
    EXPECT_TRUE(mentions(target.diagnostics(), "unknown target 'tpu9'"));
    EXPECT_TRUE(mentions(target.diagnostics(), "mncore2, mlu100, host"));
}

} // namespace
} // namespace strata::test
