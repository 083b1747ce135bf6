// `strata-cli export` as a user runs it: a bundle with a measured run, the files it lists exist,
// and a broken measured trace is bad input with a diagnostic naming the file.

#include "CliRunner.h"
#include "TempDir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>

namespace strata::cli::test {
namespace {

constexpr int kBadInput = 2;

TEST(ExportCommand, MeasuredBundleListsFilesThatExist) {
    TempDir dir;
    const auto out = dir.path() / "bundle";
    const CliResult r = runCli({"export", samplePath("resnet_tiny.onnx"), "--target", "host", "--measure", "-o",
                                out.string(), "--json", "-q"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    std::set<std::string> names;
    for (const auto& f : j["files"]) {
        names.insert(f["name"].get<std::string>());
        EXPECT_TRUE(std::filesystem::exists(out / f["name"].get<std::string>())) << f;
    }
    EXPECT_TRUE(names.count("measured.trace.json"));
    EXPECT_TRUE(names.count("emulated.trace.json"));
    EXPECT_TRUE(names.count("report.md"));
}

TEST(ExportCommand, TruncatedMeasuredTraceIsBadInput) {
    TempDir dir;
    const auto trace = dir.writeFile("cut.json", R"({"traceEvents": [{"ph": "X", "ts": 1)");
    const CliResult r = runCli({"export", samplePath("resnet_tiny.onnx"), "--target", "host", "--measured",
                                trace.string(), "-o", (dir.path() / "b").string()});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_NE(r.err.find("cut.json"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "b"));
}

TEST(ExportCommand, NeedsAnOutputFolder) {
    const CliResult r = runCli({"export", samplePath("resnet_tiny.onnx"), "--target", "host"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_NE(r.err.find("--output"), std::string::npos) << r.err;
}

} // namespace
} // namespace strata::cli::test
