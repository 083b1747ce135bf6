// Where `host` finds this computer's calibrated target: the default file under the XDG config
// directory, `host-uncalibrated`, and a broken calibrated file.

#include "target/CalibratedHost.h"

#include "TargetFixtures.h"

#include <gtest/gtest.h>

#include <cstdlib>
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

} // namespace
} // namespace strata::test
