// strata-cli against hostile input (issue 24): each reproducer ends at once with exit 0-2 and a
// diagnostic. 0 success, 1 the work failed (a valid input that does not fit), 2 bad usage or
// bad input. Special files are refused, outputs replace only regular files, diagnostics quote
// values briefly, and export bundles are replaced as a whole.

#include "CliRunner.h"
#include "TempDir.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/stat.h>

namespace strata::cli::test {
namespace {

namespace fs = std::filesystem;

constexpr int kFailed = 1;
constexpr int kBadInput = 2;

std::string readAll(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(HostileInput, InspectRefusesAFifoInsteadOfWaiting) {
    TempDir dir;
    const fs::path pipe = dir.path() / "model.onnx";
    ASSERT_EQ(::mkfifo(pipe.c_str(), 0600), 0);
    const CliResult r = runCli({"inspect", pipe.string()});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "FIFO"));
}

TEST(HostileInput, InspectRefusesADirectoryAndADevice) {
    TempDir dir;
    CliResult r = runCli({"inspect", dir.path().string()});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "directory"));
    r = runCli({"inspect", "/dev/zero"});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "device"));
}

TEST(HostileInput, ScheduleOutputNeverReplacesADeviceFifoOrSymlink) {
    TempDir dir;
    const fs::path pipe = dir.path() / "pipe.json";
    ASSERT_EQ(::mkfifo(pipe.c_str(), 0600), 0);
    const fs::path real = dir.writeFile("real.json", "keep");
    const fs::path link = dir.path() / "link.json";
    fs::create_symlink(real, link);
    for (const std::string& target : {std::string("/dev/full"), pipe.string(), link.string()}) {
        const CliResult r = runCli(
            {"schedule", samplePath("resnet_tiny.onnx"), "--target", "mncore2", "-o", target});
        EXPECT_EQ(r.exitCode, kFailed) << target << ": " << r.err;
        EXPECT_TRUE(containsText(r.err, "only a regular file is replaced"));
    }
    EXPECT_TRUE(fs::is_character_file(fs::symlink_status("/dev/full")));
    EXPECT_TRUE(fs::is_fifo(fs::symlink_status(pipe)));
    EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
    EXPECT_EQ(readAll(real), "keep");
}

TEST(HostileInput, ScheduleOutputReplacesARegularFile) {
    TempDir dir;
    const fs::path out = dir.writeFile("s.json", "old");
    const CliResult r = runCli(
        {"schedule", samplePath("resnet_tiny.onnx"), "--target", "mncore2", "-o", out.string()});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(readAll(out).find("strata_schedule"), std::string::npos);
}

TEST(HostileInput, DuplicateKeysInATargetAreBadInput) {
    TempDir dir;
    std::string text =
        readAll(fs::path(STRATA_SAMPLES_DIR) / ".." / "resources" / "targets" / "mncore2.json");
    ASSERT_FALSE(text.empty());
    text.insert(text.find('{') + 1, "\"name\": \"twice\",");
    const fs::path target = dir.writeFile("dup.json", text);
    const CliResult r =
        runCli({"schedule", samplePath("resnet_tiny.onnx"), "--target", target.string()});
    EXPECT_EQ(r.exitCode, kBadInput) << r.err;
    EXPECT_TRUE(containsText(r.err, "duplicate key 'name'"));
}

TEST(HostileInput, AHugeValueIsQuotedBriefly) {
    TempDir dir;
    const std::string huge(5'000'000, 'z');
    const fs::path schedule =
        dir.writeFile("s.json", R"({"strata_schedule": 1, "blocks": [{"id": 0, "ops": [")" + huge +
                                    R"("], "mp": 1}]})");
    const CliResult r = runCli({"validate", samplePath("resnet_tiny.onnx"), "--target", "mncore2",
                                "--schedule", schedule.string()});
    EXPECT_EQ(r.exitCode, kBadInput) << r.err.substr(0, 500);
    EXPECT_LT(r.err.size(), 20'000u);
    EXPECT_TRUE(containsText(r.err, "zzz"));
}

TEST(HostileInput, AnIntegerBeyondIntIsReportedAsWritten) {
    TempDir dir;
    const fs::path schedule = dir.writeFile(
        "s.json",
        R"({"strata_schedule": 1, "blocks": [{"id": 0, "ops": ["x"], "mp": 9223372036854775807}]})");
    const CliResult r = runCli({"validate", samplePath("resnet_tiny.onnx"), "--target", "mncore2",
                                "--schedule", schedule.string()});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "9223372036854775807"));
    EXPECT_EQ(r.err.find("2147483647"), std::string::npos) << r.err;
}

// The emulated trace as CSV, which `export --measured` must read as `compare` does.
fs::path emulatedCsv(const TempDir& dir) {
    const fs::path csv = dir.path() / "run.csv";
    const CliResult r = runCli(
        {"emulate", samplePath("resnet_tiny.onnx"), "--target", "host", "--csv", csv.string()});
    EXPECT_EQ(r.exitCode, 0) << r.err;
    return csv;
}

TEST(HostileInput, ExportMeasuredAcceptsACsvTrace) {
    TempDir dir;
    const fs::path csv = emulatedCsv(dir);
    const fs::path out = dir.path() / "bundle";
    const CliResult r = runCli({"export", samplePath("resnet_tiny.onnx"), "--target", "host",
                                "--measured", csv.string(), "-o", out.string(), "-q"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(fs::exists(out / "measured.csv"));
}

TEST(HostileInput, ExportMeasuredRejectsAnEmptyTraceAndDuplicatedIds) {
    TempDir dir;
    const fs::path csv = emulatedCsv(dir);
    const std::string text = readAll(csv);
    // The header row is the first line not starting with '#'.
    std::size_t header = 0;
    while (text.compare(header, 1, "#") == 0)
        header = text.find('\n', header) + 1;
    ASSERT_EQ(text.compare(header, 3, "id,"), 0) << text.substr(0, 200);
    const std::size_t firstRow = text.find('\n', header) + 1;
    const std::size_t secondRow = text.find('\n', firstRow) + 1;
    const fs::path empty = dir.writeFile("empty.csv", text.substr(0, firstRow));
    CliResult r = runCli({"export", samplePath("resnet_tiny.onnx"), "--target", "host",
                          "--measured", empty.string(), "-o", (dir.path() / "b1").string()});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "no events"));

    const fs::path twice =
        dir.writeFile("twice.csv", text + text.substr(firstRow, secondRow - firstRow));
    r = runCli({"export", samplePath("resnet_tiny.onnx"), "--target", "host", "--measured",
                twice.string(), "-o", (dir.path() / "b2").string()});
    EXPECT_EQ(r.exitCode, kBadInput);
    EXPECT_TRUE(containsText(r.err, "twice.csv"));
    EXPECT_FALSE(fs::exists(dir.path() / "b2"));
}

TEST(HostileInput, AnExportReplacesThePreviousBundleAsAWhole) {
    TempDir dir;
    const fs::path out = dir.path() / "bundle";
    CliResult r = runCli({"export", samplePath("resnet_tiny.onnx"), "--target", "mncore2", "-o",
                          out.string(), "-q"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    ASSERT_TRUE(fs::exists(out / "resnet_tiny.s"));
    r = runCli({"export", samplePath("mobilenet_tiny.onnx"), "--target", "mncore2", "-o",
                out.string(), "-q"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(fs::exists(out / "mobilenet_tiny.s"));
    EXPECT_FALSE(fs::exists(out / "resnet_tiny.s"))
        << "the first model's files stayed beside the new manifest";
    // Nothing is left beside the bundle.
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(HostileInput, AnExportNeverEmptiesAFolderThatIsNotABundle) {
    TempDir dir;
    const fs::path mine = dir.writeFile("notes.txt", "my notes");
    const CliResult r = runCli({"export", samplePath("resnet_tiny.onnx"), "--target", "mncore2",
                                "-o", dir.path().string(), "-q"});
    EXPECT_EQ(r.exitCode, kFailed);
    EXPECT_TRUE(containsText(r.err, "is not a previous bundle"));
    EXPECT_EQ(readAll(mine), "my notes");
}

TEST(HostileInput, AHugeTargetIsRefusedUpFrontWithAFigure) {
    TempDir dir;
    auto target = nlohmann::json::parse(
        readAll(fs::path(STRATA_SAMPLES_DIR) / ".." / "resources" / "targets" / "mncore2.json"));
    target["name"] = "huge";
    target["topology"] = {{"groups", 256}, {"cores_per_group", 256}};
    const fs::path file = dir.writeFile("huge.json", target.dump());
    const CliResult r =
        runCli({"emulate", samplePath("resnet_tiny.onnx"), "--target", file.string()});
    EXPECT_TRUE(r.exitCode == kFailed || r.exitCode == kBadInput) << r.exitCode << r.err;
    EXPECT_TRUE(containsText(r.err, "limit"));
}

} // namespace
} // namespace strata::cli::test
