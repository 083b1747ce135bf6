// `strata-cli search` as a user runs it: the JSON the issue specifies, the best schedule written
// as a normal schedule file that validates, --measure on the host, and bad input.

#include "CliRunner.h"
#include "TempDir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>

namespace strata::cli::test {
namespace {

constexpr int kBadInput = 2;

CliResult search(const std::vector<std::string>& extra) {
    std::vector<std::string> args = {
        "search", samplePath("resnet_tiny.onnx"), "--budget", "0", "--max-candidates", "30"};
    args.insert(args.end(), extra.begin(), extra.end());
    return runCli(args);
}

TEST(SearchCommand, JsonHasTheDocumentedKeysAndTheBestFileValidates) {
    TempDir dir;
    const std::string out = (dir.path() / "best.json").string();
    const CliResult r =
        search({"--target", "mncore2", "--objective", "pareto", "--json", "-o", out});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["baseline"].size(), 3u);
    double bestStart = 0;
    for (const auto& b : j["baseline"]) {
        EXPECT_TRUE(b.contains("strategy"));
        ASSERT_TRUE(b["emulated_ns"].is_number()) << b.dump();
        EXPECT_TRUE(b["dram_bytes"].is_number());
        const double ns = b["emulated_ns"].get<double>();
        bestStart = bestStart == 0 ? ns : std::min(bestStart, ns);
    }
    EXPECT_LE(j["best"]["emulated_ns"].get<double>(), bestStart);
    EXPECT_TRUE(j["best"]["dram_bytes"].is_number());
    EXPECT_FALSE(j["best"].contains("measured_ns"));
    EXPECT_GT(j["evaluated"].get<int>(), 0);
    EXPECT_LE(j["evaluated"].get<int>(), 30);
    EXPECT_TRUE(j["seconds"].is_number());
    EXPECT_GE(j["left_out"].get<int>(), 0);
    ASSERT_FALSE(j["pareto"].empty());
    for (const auto& p : j["pareto"]) {
        EXPECT_TRUE(p["emulated_ns"].is_number());
        EXPECT_TRUE(p["dram_bytes"].is_number());
        EXPECT_TRUE(p["schedule"]["blocks"].is_array());
    }
    ASSERT_FALSE(j["history"].empty());
    EXPECT_EQ(j["history"].back()["best_ns"], j["best"]["emulated_ns"]);

    const CliResult v = runCli(
        {"validate", samplePath("resnet_tiny.onnx"), "--target", "mncore2", "--schedule", out});
    EXPECT_EQ(v.exitCode, 0) << v.out << v.err;
    const CliResult e = runCli({"emulate", samplePath("resnet_tiny.onnx"), "--target", "mncore2",
                                "--schedule", out, "--json"});
    ASSERT_EQ(e.exitCode, 0) << e.err;
    EXPECT_EQ(nlohmann::json::parse(e.out)["total_ns"], j["best"]["emulated_ns"]);
}

TEST(SearchCommand, SameSeedSameBest) {
    const CliResult a = search({"--target", "mncore2", "--seed", "9", "--json"});
    const CliResult b = search({"--target", "mncore2", "--seed", "9", "--json", "--threads", "1"});
    ASSERT_EQ(a.exitCode, 0) << a.err;
    ASSERT_EQ(b.exitCode, 0) << b.err;
    EXPECT_EQ(nlohmann::json::parse(a.out)["best"], nlohmann::json::parse(b.out)["best"]);
}

TEST(SearchCommand, NoReuseFindsTheSameBest) {
    const CliResult a = search({"--target", "mlu100", "--seed", "3", "--json"});
    const CliResult b = search({"--target", "mlu100", "--seed", "3", "--json", "--no-reuse"});
    ASSERT_EQ(a.exitCode, 0) << a.err;
    ASSERT_EQ(b.exitCode, 0) << b.err;
    const auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
    EXPECT_EQ(ja["best"], jb["best"]);
    EXPECT_EQ(ja["evaluated"], jb["evaluated"]);
    EXPECT_EQ(ja["invalid"], jb["invalid"]);
    EXPECT_EQ(ja["left_out"], jb["left_out"]);
}

TEST(SearchCommand, MeasureRunsTheBestOnTheHost) {
    const CliResult r =
        search({"--target", "host", "--measure", "2", "--measure-runs", "1", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_TRUE(j["best"]["measured_ns"].is_number());
    ASSERT_EQ(j["measured"].size(), 3u); // the two best and the best start
    for (const auto& m : j["measured"]) {
        EXPECT_TRUE(m["emulated_ns"].is_number());
        EXPECT_GT(m["measured_ns"].get<double>(), 0);
    }
}

TEST(SearchCommand, TheSearchedScheduleRunsAndMatchesTheReference) {
    TempDir dir;
    const std::string out = (dir.path() / "best.json").string();
    const CliResult r = search({"--target", "host", "-o", out, "-q"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const CliResult run =
        runCli({"run", samplePath("resnet_tiny.onnx"), "--schedule", out, "--check", "-q"});
    EXPECT_EQ(run.exitCode, 0) << run.out << run.err;
    EXPECT_TRUE(containsText(run.out, "outputs match the reference"));
}

TEST(SearchCommand, TextReportNamesTheBestAndTheStarts) {
    const CliResult r = search({"--target", "mncore2", "--start", "rules"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(containsText(r.out, "start rules"));
    EXPECT_TRUE(containsText(r.out, "best"));
}

TEST(SearchCommand, BadInputIsRefused) {
    EXPECT_EQ(search({"--target", "mncore2", "--objective", "speed"}).exitCode, kBadInput);
    EXPECT_EQ(search({"--target", "mncore2", "--algorithm", "annealing"}).exitCode, kBadInput);
    EXPECT_EQ(search({"--target", "mncore2", "--start", "/nonexistent/s.json"}).exitCode,
              kBadInput);
    const CliResult measure = search({"--target", "mncore2", "--measure", "1"});
    EXPECT_EQ(measure.exitCode, kBadInput);
    EXPECT_TRUE(containsText(measure.err, "--target host"));
    const CliResult r =
        runCli({"search", samplePath("resnet_tiny.onnx"), "--target", "mncore2", "--budget", "0"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "--budget"));
}

} // namespace
} // namespace strata::cli::test
