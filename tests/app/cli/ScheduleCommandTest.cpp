// `strata-cli schedule` and `validate` as a user runs them: the JSON the issue specifies, files
// written and read back, and each kind of bad input with its exit code and diagnostic.

#include "CliRunner.h"
#include "TempDir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>

namespace strata::cli::test {
namespace {

constexpr int kInvalid = 1;
constexpr int kBadInput = 2;

nlohmann::json scheduleJson(const std::string& sample, const std::string& target, const std::string& strategy) {
    const CliResult r = runCli({"schedule", samplePath(sample), "--target", target, "--strategy", strategy, "--json"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return nlohmann::json::parse(r.out);
}

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void writeFile(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }

TEST(ScheduleCommand, JsonHasTheDocumentedKeys) {
    const auto j = scheduleJson("resnet_tiny.onnx", "mncore2", "fuse-max");
    EXPECT_EQ(j["target"], "mncore2");
    EXPECT_EQ(j["strategy"], "fuse-max");
    EXPECT_EQ(j["valid"], true);
    ASSERT_TRUE(j["blocks"].is_array());
    std::uint64_t sum = 0;
    std::size_t ops = 0;
    for (const auto& b : j["blocks"]) {
        for (const char* key : {"id", "ops", "mp", "tile", "buffering", "flops", "dram_bytes", "sram_peak_bytes"})
            EXPECT_TRUE(b.contains(key)) << key;
        EXPECT_EQ(b["mp"], 8);
        EXPECT_LE(b["sram_peak_bytes"].get<std::uint64_t>(), j["working_memory_bytes"].get<std::uint64_t>());
        sum += b["dram_bytes"].get<std::uint64_t>();
        ops += b["ops"].size();
    }
    EXPECT_EQ(j["dram_bytes"].get<std::uint64_t>(), sum);
    EXPECT_EQ(ops, 23u); // every op of resnet_tiny, once
}

TEST(ScheduleCommand, FuseMaxMovesFewerDramBytesThanPerOp) {
    for (const char* sample : {"resnet_tiny.onnx", "mobilenet_tiny.onnx", "transformer_block.onnx"}) {
        const auto perOp = scheduleJson(sample, "host", "per-op");
        const auto fused = scheduleJson(sample, "host", "fuse-max");
        EXPECT_LT(fused["blocks"].size(), perOp["blocks"].size());
        EXPECT_LT(fused["dram_bytes"].get<std::uint64_t>(), perOp["dram_bytes"].get<std::uint64_t>()) << sample;
    }
}

TEST(ScheduleCommand, TextTableNamesBlocks) {
    const CliResult r = runCli({"schedule", samplePath("resnet_tiny.onnx"), "-t", "mlu100", "-s", "rules"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(containsText(r.out, "Schedule   rules for 'resnet_tiny' on mlu100"));
    EXPECT_TRUE(containsText(r.out, "B0 "));
    EXPECT_TRUE(containsText(r.out, "SRAM peak"));
}

TEST(ScheduleCommand, WritesAFileThatValidates) {
    const TempDir dir;
    const std::string path = (dir.path() / "s.json").string();
    CliResult r = runCli({"schedule", samplePath("mobilenet_tiny.onnx"), "-t", "host", "-o", path});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    r = runCli({"validate", samplePath("mobilenet_tiny.onnx"), "-t", "host", "--schedule", path, "--json"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["valid"], true);
}

TEST(ValidateCommand, InvalidScheduleExitsOneAndNamesTheBlock) {
    const TempDir dir;
    const std::string path = (dir.path() / "s.json").string();
    ASSERT_EQ(runCli({"schedule", samplePath("resnet_tiny.onnx"), "-t", "mncore2", "-s", "per-op", "-o", path}).exitCode, 0);
    auto doc = nlohmann::json::parse(readFile(path));
    doc["blocks"][2]["mp"] = 0;
    doc["blocks"][3]["ops"].push_back(doc["blocks"][1]["ops"][0]); // one op in two blocks
    writeFile(path, doc.dump());
    const CliResult r = runCli({"validate", samplePath("resnet_tiny.onnx"), "-t", "mncore2", "--schedule", path});
    EXPECT_EQ(r.exitCode, kInvalid);
    EXPECT_TRUE(containsText(r.err, "block 'B2': mp 0 is outside 1..8"));
    EXPECT_TRUE(containsText(r.err, "op is in two blocks: B1 and B3"));
}

TEST(ValidateCommand, ScheduleOfAnotherModel) {
    const TempDir dir;
    const std::string path = (dir.path() / "s.json").string();
    ASSERT_EQ(runCli({"schedule", samplePath("resnet_tiny.onnx"), "-t", "host", "-o", path}).exitCode, 0);
    const CliResult r = runCli({"validate", samplePath("mobilenet_tiny.onnx"), "-t", "host", "--schedule", path});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "schedule was made for another model"));
}

TEST(ValidateCommand, UnreadableScheduleFiles) {
    const TempDir dir;
    const auto zeros = dir.path() / "zeros.json";
    writeFile(zeros, std::string(64, '\0'));
    CliResult r = runCli({"validate", samplePath("resnet_tiny.onnx"), "-t", "host", "--schedule", zeros.string()});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, zeros.string()));

    r = runCli({"validate", samplePath("resnet_tiny.onnx"), "-t", "host", "--schedule",
                (dir.path() / "missing.json").string()});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "error:"));
}

TEST(ScheduleCommand, BadTargetAndStrategy) {
    CliResult r = runCli({"schedule", samplePath("resnet_tiny.onnx"), "-t", "tpu9"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "mncore2"));

    r = runCli({"schedule", samplePath("resnet_tiny.onnx"), "-t", "host", "-s", "fuse-all"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "unknown strategy 'fuse-all'"));

    const TempDir dir;
    const auto target = dir.path() / "t.json";
    writeFile(target, R"({"strata_target": 1, "name": "x"})");
    r = runCli({"schedule", samplePath("resnet_tiny.onnx"), "-t", target.string()});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "clock_hz"));
}

} // namespace
} // namespace strata::cli::test

namespace strata::cli::test {
namespace {

TEST(CompileCommand, WritesAssemblyJsonAndScheduleAndReportsPasses) {
    const TempDir dir;
    const CliResult r = runCli({"compile", samplePath("resnet_tiny.onnx"), "-t", "mncore2", "-s", "rules", "-o",
                                dir.path().string(), "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_GT(j["instructions"].get<int>(), 0);
    EXPECT_GT(j["transfers"].get<int>(), 0);
    EXPECT_GT(j["dram_bytes"].get<std::uint64_t>(), 0u);
    ASSERT_EQ(j["passes"].size(), 5u);
    EXPECT_EQ(j["passes"][0]["name"], "tile-blocks");
    EXPECT_EQ(j["files"].size(), 3u);
    const std::string assembly = readFile(dir.path() / "resnet_tiny.s");
    EXPECT_TRUE(containsText(assembly, ".core 0"));
    EXPECT_TRUE(containsText(assembly, "stem/conv"));
    EXPECT_EQ(nlohmann::json::parse(readFile(dir.path() / "resnet_tiny.program.json"))["strata_program"], 1);
}

TEST(CompileCommand, DumpAfterAPassAndUnknownPass) {
    CliResult r = runCli({"compile", samplePath("mobilenet_tiny.onnx"), "-t", "host", "--dump-after", "plan-dram"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(containsText(r.err, "; --- after plan-dram"));
    EXPECT_TRUE(containsText(r.err, "DRAM plan"));
    r = runCli({"compile", samplePath("mobilenet_tiny.onnx"), "-t", "host", "--dump-after", "optimise"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "no pass named 'optimise'"));
}

TEST(CompileCommand, InvalidScheduleIsRefused) {
    const TempDir dir;
    const std::string path = (dir.path() / "s.json").string();
    ASSERT_EQ(runCli({"schedule", samplePath("resnet_tiny.onnx"), "-t", "mncore2", "-o", path}).exitCode, 0);
    auto doc = nlohmann::json::parse(readFile(path));
    doc["blocks"][0]["mp"] = 64;
    writeFile(path, doc.dump());
    const CliResult r = runCli({"compile", samplePath("resnet_tiny.onnx"), "-t", "mncore2", "--schedule", path});
    EXPECT_EQ(r.exitCode, kInvalid);
    EXPECT_TRUE(containsText(r.err, "mp 64 is outside"));
}

} // namespace
} // namespace strata::cli::test
