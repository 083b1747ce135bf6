// `strata-cli inspect` without --json: the human-readable summary and op table.

#include "CliRunner.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace strata::cli::test {
namespace {

TEST(InspectText, ResnetSummaryAndTable) {
    const CliResult r = runCli({"inspect", samplePath("resnet_tiny.onnx")});
    ASSERT_EQ(r.exitCode, 0) << "stderr:\n" << r.err;
    EXPECT_EQ(r.out.rfind("Model", 0), 0u) << r.out;
    for (const char* text : {"Nodes", "Parameters", "FLOPs", "Input", "Output", "Op types", "Conv", "stem/conv"})
        EXPECT_TRUE(containsText(r.out, text));
}

TEST(InspectText, ParameterLineMatchesJsonCount) {
    const CliResult r = runCli({"inspect", samplePath("resnet_tiny.onnx")});
    ASSERT_EQ(r.exitCode, 0) << "stderr:\n" << r.err;
    std::istringstream lines(r.out);
    std::string line;
    bool found = false;
    while (std::getline(lines, line))
        if (line.rfind("Parameters", 0) == 0) {
            found = true;
            EXPECT_TRUE(containsText(line, "20282"));
        }
    EXPECT_TRUE(found) << r.out;
}

} // namespace
} // namespace strata::cli::test
