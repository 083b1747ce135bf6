// The first prediction on `host` is calibrated: with an empty config directory `emulate --target
// host` measures this computer first and says so, --no-calibrate does not, and a corrupt
// calibration is a warning, never a failure. Each test has its own config directory.

#include "CliRunner.h"
#include "TempDir.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace strata::cli::test {
namespace {

// `emulate` of the small sample on `host` with XDG_CONFIG_HOME = `config`, calibrating on first
// use (STRATA_NO_CALIBRATE unset) unless `extra` says otherwise.
CliResult emulateOnHost(const TempDir& config, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"emulate", samplePath("resnet_tiny.onnx"), "--target", "host",
                                  "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    return runCli(args, {{"XDG_CONFIG_HOME", config.path().string()}, {"STRATA_NO_CALIBRATE", ""}});
}

TEST(FirstCalibration, EmptyConfigDirCalibratesOnceThenUsesIt) {
    TempDir config;
    const auto file = config.path() / "strata" / "host.calibrated.json";
    const CliResult first = emulateOnHost(config);
    ASSERT_EQ(first.exitCode, 0) << first.err;
    EXPECT_TRUE(containsText(first.err,
                             "calibrating this machine's host target (first use, ~2 s); saved to " +
                                 file.string()));
    EXPECT_TRUE(containsText(first.err, "calibrated figures from " + file.string()));
    ASSERT_TRUE(std::filesystem::exists(file));
    std::ifstream in(file);
    const auto saved = nlohmann::json::parse(in);
    EXPECT_EQ(saved["calibrated"], true);
    EXPECT_GT(saved["calibration"]["cores"].get<int>(), 0);
    EXPECT_FALSE(saved["calibration"]["cpu_model"].get<std::string>().empty());

    const CliResult second = emulateOnHost(config);
    ASSERT_EQ(second.exitCode, 0) << second.err;
    EXPECT_EQ(second.err.find("calibrating this machine"), std::string::npos) << second.err;
    EXPECT_TRUE(containsText(second.err, "calibrated figures from " + file.string()));
}

TEST(FirstCalibration, NoCalibrateKeepsThePresetAndWritesNothing) {
    TempDir config;
    const CliResult r = emulateOnHost(config, {"--no-calibrate"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.err.find("calibrating this machine"), std::string::npos) << r.err;
    EXPECT_TRUE(containsText(r.err, "the uncalibrated preset"));
    EXPECT_FALSE(std::filesystem::exists(config.path() / "strata"));
}

TEST(FirstCalibration, CorruptCalibrationIsAWarningAndIsReplaced) {
    TempDir config;
    std::filesystem::create_directories(config.path() / "strata");
    const auto file =
        config.writeFile("strata/host.calibrated.json", "{\"strata_target\": 1, \"na");
    // Asked not to measure: the preset, with the file's problem as a warning.
    const CliResult kept = emulateOnHost(config, {"--no-calibrate"});
    ASSERT_EQ(kept.exitCode, 0) << kept.err;
    EXPECT_TRUE(
        containsText(kept.err, "warning: the calibrated host target " + file.string() +
                                   " does not load (above): using the uncalibrated preset"));
    EXPECT_EQ(kept.err.find("error:"), std::string::npos) << kept.err;

    // Otherwise measured again, saying why.
    const CliResult redone = emulateOnHost(config);
    ASSERT_EQ(redone.exitCode, 0) << redone.err;
    EXPECT_TRUE(containsText(
        redone.err, "calibrating this machine's host target (the saved one does not load"));
    EXPECT_TRUE(containsText(redone.err, "does not load (above): measuring this machine again"));
    EXPECT_TRUE(containsText(redone.err, "calibrated figures from " + file.string()));
}

TEST(FirstCalibration, OtherTargetsNeverCalibrate) {
    TempDir config;
    const CliResult r =
        runCli({"emulate", samplePath("resnet_tiny.onnx"), "--target", "mncore2", "--json", "-q"},
               {{"XDG_CONFIG_HOME", config.path().string()}, {"STRATA_NO_CALIBRATE", ""}});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_FALSE(std::filesystem::exists(config.path() / "strata"));
}

} // namespace
} // namespace strata::cli::test
