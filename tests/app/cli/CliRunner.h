#pragma once
// Runs the strata-cli binary under test as a child process, capturing stdout and stderr apart.

#include <gtest/gtest.h>
#include <string>
#include <utility>
#include <vector>

namespace strata::cli::test {

struct CliResult {
    int exitCode = -1; // the child's exit status; -1 if it did not exit normally
    std::string out;
    std::string err;
};

// Environment variables for the child: {name, value}; an empty value unsets the variable.
using CliEnv = std::vector<std::pair<std::string, std::string>>;

// Runs STRATA_CLI_PATH with `args` (argv[1..]); stdin is /dev/null. Returns what it printed and
// its exit code. The child sees an empty XDG config directory (so `host` is never the developer's
// calibrated target) and STRATA_NO_CALIBRATE=1 (so `host` is not calibrated on first use), then
// `env` on top.
CliResult runCli(const std::vector<std::string>& args, const CliEnv& env = {});

// Path of a bundled sample model, e.g. samplePath("resnet_tiny.onnx").
std::string samplePath(const std::string& file);

// EXPECT_TRUE(containsText(haystack, needle)) prints both strings when the needle is missing.
testing::AssertionResult containsText(const std::string& haystack, const std::string& needle);

} // namespace strata::cli::test
