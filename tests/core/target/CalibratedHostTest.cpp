// Where `host` finds this computer's calibrated target: the default file under the XDG config
// directory, `host-uncalibrated`, and a broken calibrated file.

#include "target/CalibratedHost.h"

#include "TargetFixtures.h"
#include "target/TargetWriter.h"

#include <chrono>
#include <cstdlib>
#include <gtest/gtest.h>
#include <optional>

namespace strata::test {
namespace {

// Sets an environment variable for one test and restores it afterwards.
class ScopedEnv {
  public:
    ScopedEnv(const char* name, std::optional<std::string> value) : m_name(name) {
        if (const char* old = std::getenv(name)) m_old = old;
        if (value)
            ::setenv(name, value->c_str(), 1);
        else
            ::unsetenv(name);
    }
    ~ScopedEnv() {
        if (m_old)
            ::setenv(m_name, m_old->c_str(), 1);
        else
            ::unsetenv(m_name);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

  private:
    const char* m_name;
    std::optional<std::string> m_old;
};

std::string calibratedHostJson() {
    nlohmann::json doc = smallTarget();
    doc["name"] = "host";
    doc["calibrated"] = true;
    return doc.dump();
}

TEST(CalibratedHost, DefaultFileIsUnderXdgConfigHomeThenHome) {
    {
        ScopedEnv xdg("XDG_CONFIG_HOME", "/tmp/xdg-test");
        EXPECT_EQ(target::defaultCalibratedHostFile(), "/tmp/xdg-test/strata/host.calibrated.json");
    }
    {
        ScopedEnv xdg("XDG_CONFIG_HOME", "");
        ScopedEnv home("HOME", "/home/someone");
        EXPECT_EQ(target::defaultCalibratedHostFile(), "/home/someone/.config/strata/host.calibrated.json");
    }
    ScopedEnv xdg("XDG_CONFIG_HOME", std::nullopt);
    ScopedEnv home("HOME", std::nullopt);
    EXPECT_EQ(target::defaultCalibratedHostFile(), "");
}

TEST(CalibratedHost, HostIsTheCalibratedFileWhenOneExists) {
    TempDir dir;
    ScopedEnv xdg("XDG_CONFIG_HOME", dir.path().string());
    // None yet: the preset.
    auto preset = target::resolveTarget("host", target::userResolveOptions());
    ASSERT_TRUE(preset.ok()) << joined(preset.diagnostics());
    EXPECT_EQ(preset->source, "preset:host");
    EXPECT_FALSE(preset->calibrated);

    std::filesystem::create_directories(dir.path() / "strata");
    const auto file = dir.write("strata/host.calibrated.json", calibratedHostJson()).string();
    auto calibrated = target::resolveTarget("host", target::userResolveOptions());
    ASSERT_TRUE(calibrated.ok()) << joined(calibrated.diagnostics());
    EXPECT_EQ(calibrated->source, file);
    EXPECT_TRUE(calibrated->calibrated);

    // host-uncalibrated: the preset whatever exists; other names are untouched.
    auto uncalibrated = target::resolveTarget(target::kUncalibratedHost, target::userResolveOptions());
    ASSERT_TRUE(uncalibrated.ok()) << joined(uncalibrated.diagnostics());
    EXPECT_EQ(uncalibrated->source, "preset:host");
    EXPECT_FALSE(uncalibrated->calibrated);
    auto other = target::resolveTarget("mncore2", target::userResolveOptions());
    ASSERT_TRUE(other.ok());
    EXPECT_EQ(other->source, "preset:mncore2");
    // Library callers with default options keep the preset.
    auto library = target::resolveTarget("host");
    ASSERT_TRUE(library.ok());
    EXPECT_EQ(library->source, "preset:host");
}

TEST(CalibratedHost, BrokenCalibratedFileIsAnErrorNamingIt) {
    TempDir dir;
    ScopedEnv xdg("XDG_CONFIG_HOME", dir.path().string());
    std::filesystem::create_directories(dir.path() / "strata");
    const auto file = dir.write("strata/host.calibrated.json", R"({"strata_target": 1, "name": "host", "clock_hz": -5)").string();
    auto resolved = target::resolveTarget("host", target::userResolveOptions());
    ASSERT_FALSE(resolved.ok());
    const auto& diagnostics = resolved.diagnostics();
    bool parseError = false, hint = false;
    for (const Diagnostic& d : diagnostics) {
        EXPECT_EQ(d.where.file, file) << d.toString();
        parseError = parseError || d.message.find("truncated") != std::string::npos ||
                     d.message.find("offset") != std::string::npos;
        hint = hint || (d.message.find("the calibrated host target " + file + " is not valid") != std::string::npos &&
                        d.message.find("host-uncalibrated") != std::string::npos);
    }
    EXPECT_TRUE(parseError) << joined(diagnostics);
    EXPECT_TRUE(hint) << joined(diagnostics);

    // A complete file with a bad figure: the field's error, then the same hint.
    nlohmann::json doc = nlohmann::json::parse(calibratedHostJson());
    doc["paths"][0]["row_overhead_cycles"] = -1;
    dir.write("strata/host.calibrated.json", doc.dump());
    auto invalid = target::resolveTarget("host", target::userResolveOptions());
    ASSERT_FALSE(invalid.ok());
    EXPECT_TRUE(reportsError(invalid.diagnostics(), "paths[0].row_overhead_cycles", "must not be negative", file));
    // The preset stays reachable.
    EXPECT_TRUE(target::resolveTarget(target::kUncalibratedHost, target::userResolveOptions()).ok());
}

// A stamped calibrated host made on `cpu` with `cores` at `when`.
std::string stampedHostJson(const std::string& cpu, int cores, const std::string& when) {
    nlohmann::json doc = nlohmann::json::parse(calibratedHostJson());
    doc["calibration"] = {{"cpu_model", cpu}, {"cores", cores}, {"calibrated_at", when}};
    return doc.dump();
}

target::HostFacts machine(const std::string& cpu, int cores) {
    target::HostFacts facts;
    facts.cpuModel = cpu;
    facts.cpus = cores;
    return facts;
}

TEST(CalibratedHost, UtcTimesRoundTripAndBadOnesAreRefused) {
    const auto when = target::parseUtc("2026-11-26T06:14:35Z");
    ASSERT_TRUE(when.has_value());
    EXPECT_EQ(target::formatUtc(*when), "2026-11-26T06:14:35Z");
    EXPECT_FALSE(target::parseUtc("2026-11-26 06:14:35").has_value());
    EXPECT_FALSE(target::parseUtc("yesterday").has_value());
    EXPECT_FALSE(target::parseUtc("2026-11-26T06:14:35Z trailing").has_value());
}

TEST(CalibratedHost, StampSurvivesWriteAndLoad) {
    TempDir dir;
    const auto file =
        dir.write("host.json", stampedHostJson("Xeon X", 2, "2026-11-26T06:14:35Z")).string();
    auto loaded = target::loadTargetFile(file);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    ASSERT_TRUE(loaded->calibration.has_value());
    EXPECT_EQ(loaded->calibration->cpuModel, "Xeon X");
    EXPECT_EQ(loaded->calibration->cores, 2);
    auto again = target::parseTarget(target::targetToJson(*loaded), file);
    ASSERT_TRUE(again.ok()) << joined(again.diagnostics());
    again->source = loaded->source;
    EXPECT_EQ(*again, *loaded);
    EXPECT_EQ(target::describeCalibration(*loaded),
              "calibrated 2026-11-26 06:14 UTC on Xeon X (2 cores)");
    EXPECT_EQ(target::describeCalibrationDate(*loaded), "calibrated 2026-11-26 06:14 UTC");
}

TEST(CalibratedHost, SpeedChecksSurviveWriteAndLoad) {
    TempDir dir;
    nlohmann::json doc =
        nlohmann::json::parse(stampedHostJson("Xeon X", 2, "2026-11-26T06:14:35Z"));
    doc["calibration"]["speed_checks"] = {{{"cores", 1}, {"ns", 1.75e6}},
                                          {{"cores", 2}, {"ns", 1.8e6}}};
    const auto file = dir.write("host.json", doc.dump()).string();
    auto loaded = target::loadTargetFile(file);
    ASSERT_TRUE(loaded.ok()) << joined(loaded.diagnostics());
    EXPECT_EQ(loaded->calibration->speedChecks, (target::SpeedCheckTimes{{1, 1.75e6}, {2, 1.8e6}}));
    auto again = target::parseTarget(target::targetToJson(*loaded), file);
    ASSERT_TRUE(again.ok()) << joined(again.diagnostics());
    EXPECT_EQ(again->calibration, loaded->calibration);
}

TEST(CalibratedHost, BadSpeedChecksAreErrorsNamingTheField) {
    TempDir dir;
    const auto withChecks = [&](const nlohmann::json& checks) {
        nlohmann::json doc =
            nlohmann::json::parse(stampedHostJson("Xeon X", 2, "2026-11-26T06:14:35Z"));
        doc["calibration"]["speed_checks"] = checks;
        return dir.write("host.json", doc.dump()).string();
    };
    const std::string zeroCores = withChecks({{{"cores", 0}, {"ns", 1e6}}});
    auto loaded = target::loadTargetFile(zeroCores);
    ASSERT_FALSE(loaded.ok());
    EXPECT_TRUE(reportsError(loaded.diagnostics(), "calibration.speed_checks[0].cores",
                             "expected a core count from 1 to 4096, got 0", zeroCores));
    const std::string negative = withChecks({{{"cores", 1}, {"ns", -5}}});
    loaded = target::loadTargetFile(negative);
    ASSERT_FALSE(loaded.ok());
    EXPECT_TRUE(reportsError(loaded.diagnostics(), "calibration.speed_checks[0].ns",
                             "expected a time above 0 ns", negative));
    const std::string text = withChecks({{{"cores", 1}, {"ns", "fast"}}});
    loaded = target::loadTargetFile(text);
    ASSERT_FALSE(loaded.ok());
    EXPECT_TRUE(
        reportsError(loaded.diagnostics(), "calibration.speed_checks[0].ns", "number", text));
    const std::string notArray = withChecks("1.5 ms");
    loaded = target::loadTargetFile(notArray);
    ASSERT_FALSE(loaded.ok());
    EXPECT_TRUE(reportsError(loaded.diagnostics(), "calibration.speed_checks", "array", notArray));
}

TEST(CalibratedHost, InspectionTellsMissingCurrentStaleAndOtherMachineApart) {
    TempDir dir;
    const auto now = *target::parseUtc("2026-11-26T06:00:00Z");
    const auto file = (dir.path() / "host.json").string();
    EXPECT_EQ(target::inspectHostCalibration(file, machine("Xeon X", 2), now).state,
              target::CalibrationState::Missing);
    EXPECT_EQ(target::inspectHostCalibration("", machine("Xeon X", 2), now).state,
              target::CalibrationState::Missing);

    dir.write("host.json", stampedHostJson("Xeon X", 2, "2026-11-20T06:00:00Z"));
    auto current = target::inspectHostCalibration(file, machine("Xeon X", 2), now);
    EXPECT_EQ(current.state, target::CalibrationState::Current);
    EXPECT_TRUE(current.usable());

    // 40 days later: still used, but stale, and it says how old.
    auto stale = target::inspectHostCalibration(file, machine("Xeon X", 2),
                                                now + std::chrono::hours(24 * 40));
    EXPECT_EQ(stale.state, target::CalibrationState::Stale);
    EXPECT_TRUE(stale.usable());
    EXPECT_NE(stale.why.find("46 days old"), std::string::npos) << stale.why;

    // Another CPU model or core count: not used, with both machines named.
    auto otherCpu = target::inspectHostCalibration(file, machine("Ryzen Y", 2), now);
    EXPECT_EQ(otherCpu.state, target::CalibrationState::OtherMachine);
    EXPECT_FALSE(otherCpu.usable());
    EXPECT_NE(otherCpu.why.find("Xeon X"), std::string::npos) << otherCpu.why;
    EXPECT_NE(otherCpu.why.find("Ryzen Y"), std::string::npos) << otherCpu.why;
    EXPECT_EQ(target::inspectHostCalibration(file, machine("Xeon X", 8), now).state,
              target::CalibrationState::OtherMachine);

    // Made when the scratch was sized differently (older Strata sized it to the L2 alone): used,
    // but stale, with both sizes.
    target::HostFacts biggerCache = machine("Xeon X", 2);
    biggerCache.l2BytesPerCore = 1 << 20;
    biggerCache.lastLevelBytesPerCore = 16 << 20;
    auto resized = target::inspectHostCalibration(file, biggerCache, now);
    EXPECT_EQ(resized.state, target::CalibrationState::Stale);
    EXPECT_TRUE(resized.usable());
    EXPECT_NE(resized.why.find("this machine's caches hold 17.0 MiB per core"), std::string::npos) << resized.why;

    // Written before files carried a stamp: used, offered again.
    dir.write("host.json", calibratedHostJson());
    auto unstamped = target::inspectHostCalibration(file, machine("Xeon X", 2), now);
    EXPECT_EQ(unstamped.state, target::CalibrationState::Stale);
    EXPECT_TRUE(unstamped.usable());

    // Not a calibrated host at all, or not JSON: unreadable, with the loader's diagnostics.
    dir.write("host.json", smallTarget().dump());
    EXPECT_EQ(target::inspectHostCalibration(file, machine("Xeon X", 2), now).state,
              target::CalibrationState::Unreadable);
    dir.write("host.json", "{\"strata_target\": 1, \"name\"");
    auto corrupt = target::inspectHostCalibration(file, machine("Xeon X", 2), now);
    EXPECT_EQ(corrupt.state, target::CalibrationState::Unreadable);
    EXPECT_FALSE(corrupt.problems.empty());
}

TEST(CalibratedHost, HostIgnoresACalibrationOfAnotherMachineWithAWarning) {
    TempDir dir;
    ScopedEnv xdg("XDG_CONFIG_HOME", dir.path().string());
    std::filesystem::create_directories(dir.path() / "strata");
    dir.write("strata/host.calibrated.json",
              stampedHostJson("Not This CPU 9000", 512, "2026-11-26T06:14:35Z"));
    std::vector<Diagnostic> warnings;
    auto resolved = target::resolveTarget("host", target::userResolveOptions(), &warnings);
    ASSERT_TRUE(resolved.ok()) << joined(resolved.diagnostics());
    EXPECT_EQ(resolved->source, "preset:host");
    EXPECT_FALSE(resolved->calibrated);
    EXPECT_NE(joined(warnings).find("is not used: it was made on Not This CPU 9000 with 512 cores"),
              std::string::npos)
        << joined(warnings);
}

} // namespace
} // namespace strata::test
