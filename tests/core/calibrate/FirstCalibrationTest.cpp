// The first prediction on `host` is calibrated: an empty config directory gets a calibration
// (measured here, with --quick's programs), a usable one is kept, a corrupt one or one of another
// machine is measured again with a warning. Never the developer's own calibration: every test
// points at a temp folder.

#include "calibrate/FirstCalibration.h"

#include "support/TestModels.h"
#include "target/TargetLoader.h"
#include "target/TargetWriter.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace strata::test {
namespace {

calibrate::CalibrateOptions quick() {
    calibrate::CalibrateOptions options;
    options.quick = true;
    return options;
}

TEST(FirstCalibration, EmptyConfigDirIsCalibratedOnceAndSaved) {
    TempDir dir;
    const std::string file =
        (dir.path() / "strata" / "host.calibrated.json").string(); // folder not there yet
    std::vector<std::string> said;
    auto first = calibrate::ensureHostCalibrated(
        file, quick(), [&](const std::string& line) { said.push_back(line); });
    EXPECT_EQ(first.found.state, target::CalibrationState::Missing);
    EXPECT_TRUE(first.measured) << joined(first.diagnostics);
    EXPECT_TRUE(first.saved) << joined(first.diagnostics);
    ASSERT_EQ(said.size(), 1u);
    EXPECT_EQ(said[0],
              "calibrating this machine's host target (first use, ~2 s); saved to " + file);

    // What was saved is this machine's, stamped, and `host` means it from now on.
    auto saved = target::loadTargetFile(file);
    ASSERT_TRUE(saved.ok()) << joined(saved.diagnostics());
    EXPECT_TRUE(saved->calibrated);
    ASSERT_TRUE(saved->calibration.has_value());
    const target::HostFacts here = target::probeHost();
    EXPECT_EQ(saved->calibration->cpuModel, here.cpuModel);
    EXPECT_EQ(saved->calibration->cores, here.cpus);
    auto host = target::resolveTarget("host", {.calibratedHostFile = file});
    ASSERT_TRUE(host.ok()) << joined(host.diagnostics());
    EXPECT_EQ(host->source, file);

    // The second time there is nothing to do.
    said.clear();
    auto second = calibrate::ensureHostCalibrated(
        file, quick(), [&](const std::string& line) { said.push_back(line); });
    EXPECT_EQ(second.found.state, target::CalibrationState::Current);
    EXPECT_FALSE(second.measured);
    EXPECT_TRUE(said.empty());
    EXPECT_TRUE(second.diagnostics.empty()) << joined(second.diagnostics);
}

TEST(FirstCalibration, CorruptFileIsMeasuredAgainWithAWarningNamingIt) {
    TempDir dir;
    const std::string file =
        dir.write("host.calibrated.json", "{\"strata_target\": 1, \"name\": \"ho").string();
    std::vector<std::string> said;
    auto result = calibrate::ensureHostCalibrated(
        file, quick(), [&](const std::string& line) { said.push_back(line); });
    EXPECT_EQ(result.found.state, target::CalibrationState::Unreadable);
    EXPECT_TRUE(result.saved) << joined(result.diagnostics);
    EXPECT_TRUE(
        mentions(result.diagnostics, "the calibrated host target " + file + " does not load"))
        << joined(result.diagnostics);
    for (const Diagnostic& d : result.diagnostics)
        EXPECT_NE(d.severity, Severity::Error) << d.toString();
    ASSERT_EQ(said.size(), 1u);
    EXPECT_NE(said[0].find("the saved one does not load"), std::string::npos) << said[0];
    EXPECT_TRUE(target::loadTargetFile(file).ok());
}

TEST(FirstCalibration, AnotherMachinesCalibrationIsReplaced) {
    TempDir dir;
    // A calibrated host of this machine's shape, stamped with a CPU this is not.
    auto preset = target::resolveTarget("host-uncalibrated");
    ASSERT_TRUE(preset.ok());
    target::Target other = *preset;
    other.calibrated = true;
    other.calibration = target::CalibrationStamp{"Not This CPU 9000", 512, "2026-01-01T00:00:00Z"};
    const std::string file =
        dir.write("host.calibrated.json", target::targetToJson(other)).string();
    auto result = calibrate::ensureHostCalibrated(file, quick());
    EXPECT_EQ(result.found.state, target::CalibrationState::OtherMachine);
    EXPECT_TRUE(result.saved) << joined(result.diagnostics);
    auto saved = target::loadTargetFile(file);
    ASSERT_TRUE(saved.ok());
    ASSERT_TRUE(saved->calibration.has_value());
    EXPECT_EQ(saved->calibration->cpuModel, target::probeHost().cpuModel);
}

TEST(FirstCalibration, NoFileNameMeansNothingIsMeasured) {
    auto result =
        calibrate::ensureHostCalibrated("", quick(), [](const std::string&) { ADD_FAILURE(); });
    EXPECT_FALSE(result.measured);
    EXPECT_FALSE(result.saved);
}

} // namespace
} // namespace strata::test
