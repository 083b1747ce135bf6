// Every way `strata-cli` rejects its input: exit code 2 and a diagnostic on stderr.

#include "CliRunner.h"
#include "TempDir.h"

#include <gtest/gtest.h>

#include <string>

namespace strata::cli::test {
namespace {

constexpr int kBadInput = 2;

TEST(InspectInputShape, UnknownInputNameIsRejected) {
    const CliResult r = runCli({"inspect", samplePath("resnet_tiny.onnx"), "--json", "--input-shape", "nosuch=1x2"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "nosuch"));
    EXPECT_EQ(r.out, "");
}

TEST(InspectInputShape, NonNumericDimIsRejected) {
    const CliResult r = runCli({"inspect", samplePath("resnet_tiny.onnx"), "--json", "--input-shape", "image=1xZ"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "error:"));
    EXPECT_EQ(r.out, "");
}

TEST(InspectModelFile, MissingFileIsRejected) {
    const TempDir dir;
    const std::string path = (dir.path() / "does_not_exist.onnx").string();
    const CliResult r = runCli({"inspect", path, "--json"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "error:"));
    EXPECT_TRUE(containsText(r.err, path));
    EXPECT_EQ(r.out, "");
}

TEST(InspectModelFile, EmptyFileIsRejected) {
    const TempDir dir;
    const std::string path = dir.writeFile("empty.onnx", "").string();
    const CliResult r = runCli({"inspect", path, "--json"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "error:"));
    EXPECT_TRUE(containsText(r.err, path));
    EXPECT_EQ(r.out, "");
}

TEST(InspectModelFile, GarbageBytesAreRejected) {
    const TempDir dir;
    std::string garbage;
    for (int i = 0; i < 512; ++i) garbage += char((i * 131 + 7) & 0xff);
    const std::string path = dir.writeFile("garbage.onnx", garbage).string();
    const CliResult r = runCli({"inspect", path, "--json"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "error:"));
    EXPECT_TRUE(containsText(r.err, path));
    EXPECT_EQ(r.out, "");
}

TEST(InspectModelFile, PngIsRecognised) {
    const TempDir dir;
    const std::string png = std::string("\x89PNG\r\n\x1a\n", 8) + "IHDR junk that is not a model";
    const std::string path = dir.writeFile("picture.onnx", png).string();
    const CliResult r = runCli({"inspect", path, "--json"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "error:"));
    EXPECT_TRUE(containsText(r.err, "PNG"));
    EXPECT_EQ(r.out, "");
}

TEST(CliUsage, NoSubcommandIsBadUsage) {
    EXPECT_EQ(runCli({}).exitCode, kBadInput);
}

TEST(CliUsage, UnknownTopLevelOptionIsBadUsage) {
    EXPECT_EQ(runCli({"--no-such-option"}).exitCode, kBadInput);
}

TEST(CliUsage, UnknownInspectOptionIsBadUsage) {
    const CliResult r = runCli({"inspect", samplePath("resnet_tiny.onnx"), "--no-such-option"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_EQ(r.out, "");
}

TEST(CliUsage, InspectWithoutModelIsBadUsage) {
    EXPECT_EQ(runCli({"inspect"}).exitCode, kBadInput);
}

} // namespace
} // namespace strata::cli::test
