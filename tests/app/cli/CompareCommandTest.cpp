// `strata-cli compare` as a user runs it: an emulated trace against a "measured" one made from it
// with known errors, the JSON the issue specifies, the text table, CSV input, and bad files.

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

// The emulated trace of a sample, and a copy of it as if measured: every transfer 2.5 times as long
// and everything else twice as long (every time doubled, so a core's stream stays in order).
struct TracePair {
    TempDir dir;
    std::filesystem::path emulated;
    std::filesystem::path measured;
};

void makeMeasured(const std::filesystem::path& from, const std::filesystem::path& to, double transferScale) {
    nlohmann::json j = nlohmann::json::parse(readFile(from));
    j["strata"]["source"] = "measured";
    for (auto& e : j["traceEvents"]) {
        if (e["ph"] != "X") continue;
        auto& args = e["args"];
        args["source"] = "measured";
        const double start = args["start_ns"].get<double>();
        const double end = args["end_ns"].get<double>();
        // Double every time (exact in binary, keeps streams ordered), transfers' durations more.
        args["start_ns"] = start * 2;
        args["end_ns"] = args["kind"] == "transfer" ? start * 2 + (end - start) * 2 * transferScale : end * 2;
    }
    std::ofstream(to) << j.dump();
}

TEST(CompareCommand, JsonReportsTheKnownErrors) {
    TracePair p;
    p.emulated = p.dir.path() / "emulated.json";
    p.measured = p.dir.path() / "measured.json";
    const CliResult e = runCli({"emulate", samplePath("resnet_tiny.onnx"), "--target", "mncore2", "--trace", p.emulated.string(), "-q"});
    ASSERT_EQ(e.exitCode, 0) << e.err;
    makeMeasured(p.emulated, p.measured, 1.25);

    const CliResult r = runCli({"compare", p.emulated.string(), p.measured.string(), "--json"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    std::set<std::string> keys;
    for (auto it = j.begin(); it != j.end(); ++it) keys.insert(it.key());
    EXPECT_EQ(keys, (std::set<std::string>{"matched", "total_emulated_ns", "total_measured_ns", "total_error",
                                           "transfer_median_abs_error", "blocks"}));
    const auto trace = nlohmann::json::parse(readFile(p.emulated));
    std::size_t events = 0;
    for (const auto& ev : trace["traceEvents"]) events += ev["ph"] == "X";
    EXPECT_EQ(j["matched"].get<std::size_t>(), events);
    // Transfers measured 2 * 1.25 = 2.5 times longer: |error| = 1 - 1/2.5.
    EXPECT_NEAR(j["transfer_median_abs_error"].get<double>(), 1 - 1 / 2.5, 1e-6);
    EXPECT_LT(j["total_error"].get<double>(), -0.45);
    EXPECT_GT(j["total_measured_ns"].get<double>(), j["total_emulated_ns"].get<double>());
    ASSERT_FALSE(j["blocks"].empty());
    for (const auto& b : j["blocks"]) {
        EXPECT_TRUE(b.contains("id") && b.contains("emulated_ns") && b.contains("measured_ns") && b.contains("error"));
        EXPECT_LT(b["error"].get<double>(), 0);
    }
}

TEST(CompareCommand, TextTableAndCsvInput) {
    TempDir dir;
    const auto emulated = dir.path() / "emulated.json";
    const auto csv = dir.path() / "measured.csv";
    const CliResult e = runCli({"emulate", samplePath("resnet_tiny.onnx"), "--target", "mncore2", "--trace",
                                emulated.string(), "--csv", csv.string(), "-q"});
    ASSERT_EQ(e.exitCode, 0) << e.err;
    // The CSV of the same run, read as a measurement: every error is 0.
    const CliResult r = runCli({"compare", emulated.string(), csv.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(containsText(r.out, "error +0.0%"));
    EXPECT_TRUE(containsText(r.out, "median |error| per event: transfer 0.0%"));
    EXPECT_TRUE(containsText(r.out, "block"));
}

TEST(CompareCommand, UnknownIdInTheMeasuredFile) {
    TempDir dir;
    const auto emulated = dir.path() / "emulated.json";
    const CliResult e = runCli({"emulate", samplePath("resnet_tiny.onnx"), "--target", "mncore2", "--trace", emulated.string(), "-q"});
    ASSERT_EQ(e.exitCode, 0) << e.err;
    const auto measured = dir.writeFile("m.csv", "id,core,kind,start_ns,end_ns\n0,0,transfer,0,10\n999999,0,compute,10,20\n");
    const CliResult r = runCli({"compare", emulated.string(), measured.string()});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "line 2, column 'path'': a transfer needs its path"));
    const auto measured2 = dir.writeFile("m2.csv", "id,core,kind,start_ns,end_ns\n999999,0,compute,10,20\n");
    const CliResult r2 = runCli({"compare", emulated.string(), measured2.string()});
    EXPECT_EQ(r2.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r2.err, "event i999999 (line 2): unknown id: the program has no instruction i999999"));
}

TEST(CompareCommand, DifferentModelsAreRefused) {
    TempDir dir;
    const auto a = dir.path() / "a.json";
    const auto b = dir.path() / "b.json";
    ASSERT_EQ(runCli({"emulate", samplePath("resnet_tiny.onnx"), "--target", "mncore2", "--trace", a.string(), "-q"}).exitCode, 0);
    ASSERT_EQ(runCli({"emulate", samplePath("mobilenet_tiny.onnx"), "--target", "mncore2", "--trace", b.string(), "-q"}).exitCode, 0);
    const CliResult r = runCli({"compare", a.string(), b.string()});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "the traces are of different models"));
}

TEST(CompareCommand, TruncatedAndMissingFiles) {
    TempDir dir;
    const auto good = dir.writeFile("good.json", readFile(std::string(STRATA_TRACE_DATA) + "/measured_example.json"));
    const std::string text = readFile(good);
    const auto truncated = dir.writeFile("truncated.json", text.substr(0, text.size() / 2));
    const CliResult r = runCli({"compare", good.string(), truncated.string()});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "truncated.json:"));
    const CliResult missing = runCli({"compare", good.string(), (dir.path() / "none.json").string()});
    EXPECT_EQ(missing.exitCode, kBadInput);
    EXPECT_TRUE(containsText(missing.err, "no such file"));
}

// With --model, compare names the ops predicted with a figure measured on other work: mncore2 has
// no global-pool figure, so resnet_tiny's GlobalAveragePool borrows the pooling one, nor a
// pointwise one, so its strided 1x1 shortcut (a pointwise convolution) borrows conv's, nor a
// copy one, so its Reshape (a box move) borrows data movement's.
TEST(CompareCommand, ModelListsTheOpsCostedWithAFallbackFigure) {
    TracePair p;
    p.emulated = p.dir.path() / "emulated.json";
    p.measured = p.dir.path() / "measured.json";
    const CliResult e = runCli({"emulate", samplePath("resnet_tiny.onnx"), "--target", "mncore2",
                                "--trace", p.emulated.string(), "-q"});
    ASSERT_EQ(e.exitCode, 0) << e.err;
    makeMeasured(p.emulated, p.measured, 1.0);

    const CliResult text = runCli({"compare", p.emulated.string(), p.measured.string(), "--model",
                                   samplePath("resnet_tiny.onnx"), "-q"});
    ASSERT_EQ(text.exitCode, 0) << text.err;
    EXPECT_NE(text.out.find("note: ops costed with a fallback figure: Conv x1 at conv (no "
                            "pointwise_conv figure), GlobalAveragePool x1 at pooling (no "
                            "global_pool figure), Reshape x1 at data-movement (no copy figure)"),
              std::string::npos)
        << text.out;

    const CliResult json = runCli({"compare", p.emulated.string(), p.measured.string(), "--json",
                                   "--model", samplePath("resnet_tiny.onnx"), "-q"});
    ASSERT_EQ(json.exitCode, 0) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    ASSERT_EQ(j["fallback_ops"].size(), 3u);
    EXPECT_EQ(j["fallback_ops"][0]["op_type"], "Conv");
    EXPECT_EQ(j["fallback_ops"][0]["missing"], "pointwise_conv");
    EXPECT_EQ(j["fallback_ops"][1]["op_type"], "GlobalAveragePool");
    EXPECT_EQ(j["fallback_ops"][1]["missing"], "global_pool");
    EXPECT_EQ(j["fallback_ops"][2]["op_type"], "Reshape");
    EXPECT_EQ(j["fallback_ops"][2]["missing"], "copy");

    const CliResult missing = runCli({"compare", p.emulated.string(), p.measured.string(),
                                      "--model", (p.dir.path() / "none.onnx").string()});
    EXPECT_EQ(missing.exitCode, kBadInput);
    EXPECT_NE(missing.err.find("none.onnx"), std::string::npos) << missing.err;
}

} // namespace
} // namespace strata::cli::test
