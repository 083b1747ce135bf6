// `strata-cli emulate` and `microbench` as a user runs them: the JSON the issue specifies, the
// trace and CSV files, determinism, and bad input with its exit code and diagnostic.

#include "CliRunner.h"
#include "TempDir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <sstream>

namespace strata::cli::test {
namespace {

constexpr int kBadInput = 2;

std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::set<std::string> keysOf(const nlohmann::json& object) {
    std::set<std::string> keys;
    for (auto it = object.begin(); it != object.end(); ++it) keys.insert(it.key());
    return keys;
}

TEST(EmulateCommand, JsonHasExactlyTheDocumentedSchema) {
    const CliResult r = runCli({"emulate", samplePath("resnet_tiny.onnx"), "--target", "mncore2", "--json", "-q"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(keysOf(j), (std::set<std::string>{"source", "total_ns", "events", "blocks", "paths"}));
    EXPECT_EQ(j["source"], "emulated");
    EXPECT_TRUE(j["total_ns"].is_number());
    EXPECT_GT(j["total_ns"].get<double>(), 0);
    EXPECT_TRUE(j["events"].is_number_integer());
    ASSERT_FALSE(j["blocks"].empty());
    for (const auto& b : j["blocks"]) {
        EXPECT_EQ(keysOf(b), (std::set<std::string>{"id", "time_ns", "transfer_ns", "compute_ns", "stall_ns", "dram_bytes"}));
        EXPECT_TRUE(b["id"].is_number_integer());
        EXPECT_TRUE(b["dram_bytes"].is_number_integer());
        EXPECT_LE(b["time_ns"].get<double>(), j["total_ns"].get<double>());
    }
    ASSERT_FALSE(j["paths"].empty());
    std::set<std::string> paths;
    for (const auto& p : j["paths"]) {
        EXPECT_EQ(keysOf(p), (std::set<std::string>{"name", "bytes", "busy_fraction"}));
        EXPECT_GE(p["busy_fraction"].get<double>(), 0);
        EXPECT_LE(p["busy_fraction"].get<double>(), 1);
        paths.insert(p["name"].get<std::string>());
    }
    EXPECT_TRUE(paths.count("mvp"));

    // One event per instruction of the compiled program.
    const CliResult compiled = runCli({"compile", samplePath("resnet_tiny.onnx"), "--target", "mncore2", "--json", "-q"});
    ASSERT_EQ(compiled.exitCode, 0) << compiled.err;
    EXPECT_EQ(j["events"], nlohmann::json::parse(compiled.out)["instructions"]);
}

TEST(EmulateCommand, TraceOpensAsAChromeTraceWithATrackPerCoreAndPath) {
    TempDir dir;
    const auto trace = dir.path() / "trace.json";
    const auto csv = dir.path() / "trace.csv";
    const CliResult r = runCli({"emulate", samplePath("mobilenet_tiny.onnx"), "--target", "mncore2", "-q", "--trace",
                                trace.string(), "--csv", csv.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(containsText(r.out, "emulated"));
    EXPECT_TRUE(containsText(r.out, "wrote " + trace.string()));
    const auto doc = nlohmann::json::parse(readFile(trace));
    EXPECT_EQ(doc["strata"]["source"], "emulated");
    EXPECT_EQ(doc["strata"]["target"], "mncore2");
    std::set<std::string> processes, threads;
    std::size_t complete = 0;
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] == "M" && e["name"] == "process_name") processes.insert(e["args"]["name"].get<std::string>());
        if (e["ph"] == "M" && e["name"] == "thread_name") threads.insert(e["args"]["name"].get<std::string>());
        if (e["ph"] == "X") {
            ++complete;
            EXPECT_TRUE(e["args"].contains("id") && e["args"].contains("kind") && e["args"].contains("source"));
        }
    }
    for (int core = 0; core < 8; ++core) EXPECT_TRUE(processes.count("core " + std::to_string(core))) << core;
    EXPECT_TRUE(threads.count("stream"));
    EXPECT_TRUE(threads.count("mvp #0"));
    EXPECT_GT(complete, 0u);
    const std::string rows = readFile(csv);
    EXPECT_EQ(rows.substr(0, rows.find('\n')), "id,core,kind,path,start_ns,end_ns,duration_ns,cycles,bytes,block,op,tile,link,source");
    EXPECT_EQ(static_cast<std::size_t>(std::count(rows.begin(), rows.end(), '\n')), complete + 1);
}

TEST(EmulateCommand, SameInputSameTraceFile) {
    TempDir dir;
    std::string first, second;
    for (std::string* text : {&first, &second}) {
        const auto path = dir.path() / "t.json";
        const CliResult r = runCli({"emulate", samplePath("transformer_block.onnx"), "--target", "host", "-q", "--trace", path.string()});
        ASSERT_EQ(r.exitCode, 0) << r.err;
        *text = readFile(path);
    }
    EXPECT_FALSE(first.empty());
    EXPECT_TRUE(first == second);
}

TEST(EmulateCommand, BadInput) {
    CliResult r = runCli({"emulate", samplePath("resnet_tiny.onnx"), "--target", "nosuch"});
    EXPECT_EQ(r.exitCode, kBadInput);
    r = runCli({"emulate", samplePath("resnet_tiny.onnx"), "--target", "host", "--strategy", "fastest"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "unknown strategy 'fastest'"));
    r = runCli({"emulate", "/nonexistent.onnx", "--target", "host"});
    EXPECT_EQ(r.exitCode, kBadInput);
}

TEST(MicrobenchCommand, JsonRowsRiseWithSize) {
    const CliResult r = runCli({"microbench", "--target", "mncore2", "--kinds", "mvp,mvb", "--sizes", "1..64", "--in-flight", "2", "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["source"], "emulated");
    EXPECT_EQ(j["kinds"], nlohmann::json({"mvp", "mvb"}));
    ASSERT_EQ(j["rows"].size(), 7u); // 1, 2, 4, ..., 64 words
    double previous = 0;
    for (const auto& row : j["rows"]) {
        EXPECT_EQ(row["bytes"], row["words"].get<int>() * 8);
        EXPECT_GT(row["mixed_gbps"].get<double>(), previous);
        previous = row["mixed_gbps"].get<double>();
        EXPECT_TRUE(row["alone_gbps"]["mvp"].is_number());
        EXPECT_TRUE(row["ideal_gbps"].is_number());
    }
    EXPECT_EQ(j["limit_gbps"]["mvp"], 128.0);
}

TEST(MicrobenchCommand, TableNamesTheKinds) {
    const CliResult r = runCli({"microbench", "--target", "mncore2", "--sizes", "64,128"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(containsText(r.out, "mvp"));
    EXPECT_TRUE(containsText(r.out, "ideal"));
    EXPECT_TRUE(containsText(r.out, "(emulated)"));
}

TEST(MicrobenchCommand, BadInput) {
    CliResult r = runCli({"microbench", "--target", "mncore2", "--measure"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "--measure runs the program on this computer: use --target host"));
    r = runCli({"microbench", "--target", "mncore2", "--kinds", "dma"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "no path 'dma'"));
    r = runCli({"microbench", "--target", "mncore2", "--sizes", "8..2"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "--sizes"));
    r = runCli({"microbench", "--target", "mncore2", "--sizes", "1..1048576"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "does not fit 'L2BM'"));
}

} // namespace
} // namespace strata::cli::test
