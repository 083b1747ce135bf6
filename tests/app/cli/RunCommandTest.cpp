// `strata-cli run` as a user runs it: the documented JSON with a passing --check, the measured
// trace file, --input, and bad input files with their exit code and diagnostic.

#include "CliRunner.h"
#include "TempDir.h"
#include "support/TestModels.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace strata::cli::test {
namespace {

using strata::test::modelBytes;

constexpr int kBadInput = 2;

std::set<std::string> keysOf(const nlohmann::json& object) {
    std::set<std::string> keys;
    for (auto it = object.begin(); it != object.end(); ++it) keys.insert(it.key());
    return keys;
}

void writeFile(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out << bytes;
}

TEST(RunCommand, CheckedRunPrintsTheDocumentedJson) {
    TempDir dir;
    const auto tracePath = (dir.path() / "measured.json").string();
    const CliResult r = runCli({"run", samplePath("resnet_tiny.onnx"), "--strategy", "fuse-max", "--check", "--json",
                                "--repeat", "2", "--trace", tracePath, "-q"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(keysOf(j), (std::set<std::string>{"source", "total_ns", "events", "max_abs_error",
                                                "largest_reference_value", "blocks"}));
    EXPECT_GT(j["largest_reference_value"].get<double>(), 0);
    EXPECT_EQ(j["source"], "measured");
    EXPECT_GT(j["total_ns"].get<double>(), 0);
    EXPECT_GT(j["events"].get<int>(), 0);
    EXPECT_LE(j["max_abs_error"].get<double>(), 1e-3);
    ASSERT_FALSE(j["blocks"].empty());
    for (const auto& b : j["blocks"])
        EXPECT_EQ(keysOf(b), (std::set<std::string>{"id", "time_ns", "transfer_ns", "compute_ns", "stall_ns", "dram_bytes"}));

    std::ifstream in(tracePath);
    ASSERT_TRUE(in) << "no trace written";
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find("\"measured\""), std::string::npos);
}

// A model whose output is zero whatever its input (a last layer of zero weights, as an untrained
// ViT's head): the check passes and says that it showed little.
TEST(RunCommand, CheckSaysWhenEveryReferenceOutputIsZero) {
    TempDir dir;
    const auto model = dir.path() / "zero_head.onnx";
    writeFile(model, modelBytes(R"(
        <ir_version: 8, opset_import: ["" : 17]>
        zero_head (float[1, 8] x) => (float[1, 4] y) <float[8, 4] w = {0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0}> {
            h = Relu(x)
            y = MatMul(h, w)
        })"));
    const CliResult r = runCli({"run", model.string(), "--check", "-q"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("outputs match the reference"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("every reference output is zero"), std::string::npos) << r.out;
    const CliResult sample = runCli({"run", samplePath("resnet_tiny.onnx"), "--check", "-q"});
    EXPECT_EQ(sample.out.find("every reference output is zero"), std::string::npos) << sample.out;
}

TEST(RunCommand, ReadsInputsFromAFile) {
    TempDir dir;
    // resnet_tiny: one float input [1, 3, 64, 64].
    const auto input = dir.path() / "input.bin";
    writeFile(input, std::string(1 * 3 * 64 * 64 * 4, '\0'));
    const CliResult r = runCli({"run", samplePath("resnet_tiny.onnx"), "--input", input.string(), "--check", "-q"});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("outputs match the reference"), std::string::npos) << r.out;
}

TEST(RunCommand, RejectsAnInputFileOfTheWrongSize) {
    TempDir dir;
    const auto input = dir.path() / "short.bin";
    writeFile(input, std::string(100, '\0'));
    const CliResult r = runCli({"run", samplePath("resnet_tiny.onnx"), "--input", input.string(), "-q"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_NE(r.err.find("holds 100 bytes"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("49152"), std::string::npos) << r.err;
}

TEST(RunCommand, RejectsAMissingInputFileAndABadRepeat) {
    const CliResult missing = runCli({"run", samplePath("resnet_tiny.onnx"), "--input", "/nonexistent/in.bin", "-q"});
    EXPECT_EQ(missing.exitCode, kBadInput);
    EXPECT_NE(missing.err.find("cannot open input file"), std::string::npos) << missing.err;
    const CliResult repeat = runCli({"run", samplePath("resnet_tiny.onnx"), "--repeat", "0", "-q"});
    EXPECT_EQ(repeat.exitCode, kBadInput);
    EXPECT_NE(repeat.err.find("--repeat"), std::string::npos) << repeat.err;
}

} // namespace
} // namespace strata::cli::test
