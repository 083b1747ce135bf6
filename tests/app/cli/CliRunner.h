#pragma once
// Runs the strata-cli binary under test as a child process, capturing stdout and stderr apart.

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace strata::cli::test {

struct CliResult {
    int exitCode = -1; // the child's exit status; -1 if it did not exit normally
    std::string out;
    std::string err;
};

// Runs STRATA_CLI_PATH with `args` (argv[1..]); stdin is /dev/null. Returns what it printed and
// its exit code.
CliResult runCli(const std::vector<std::string>& args);

// Path of a bundled sample model, e.g. samplePath("resnet_tiny.onnx").
std::string samplePath(const std::string& file);

// EXPECT_TRUE(containsText(haystack, needle)) prints both strings when the needle is missing.
testing::AssertionResult containsText(const std::string& haystack, const std::string& needle);

} // namespace strata::cli::test
