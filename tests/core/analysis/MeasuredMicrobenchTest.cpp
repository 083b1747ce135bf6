// Seed 004's experiment through the host runtime: rows per size with positive throughputs and the
// harmonic ideal of the kinds alone; a stop request returns the sizes done so far; bad kinds and
// machines the runtime cannot run are diagnostics.

#include "analysis/MeasuredMicrobench.h"
#include "analysis/TransferStats.h"
#include "target/TargetLoader.h"

#include <gtest/gtest.h>

namespace strata::analysis {
namespace {

emulator::MicrobenchSpec smallSpec() {
    emulator::MicrobenchSpec spec;
    spec.kinds = {"load", "store"};
    spec.sizes = {8, 64};
    spec.transfersPerKind = 4;
    return spec;
}

TEST(MeasuredMicrobench, MeasuresEverySizeOnTheHost) {
    auto host = target::resolveTarget("host");
    ASSERT_TRUE(host) << host.diagnostics().front().message;
    auto result = measureMicrobench(*host, smallSpec(), 1);
    ASSERT_TRUE(result) << result.diagnostics().front().message;
    ASSERT_EQ(result->rows.size(), 2u);
    EXPECT_EQ(result->kinds, smallSpec().kinds);
    EXPECT_EQ(result->rows[1].words, 64u);
    EXPECT_EQ(result->rows[1].bytes, 512u);
    for (const auto& row : result->rows) {
        ASSERT_EQ(row.aloneGBps.size(), 2u);
        EXPECT_GT(row.mixedGBps, 0);
        EXPECT_GT(row.aloneGBps[0], 0);
        EXPECT_DOUBLE_EQ(row.idealGBps, harmonicMean(row.aloneGBps));
    }
}

TEST(MeasuredMicrobench, StopsWhenToldAndKeepsTheRowsDone) {
    auto host = target::resolveTarget("host");
    ASSERT_TRUE(host);
    int asked = 0;
    auto result = measureMicrobench(*host, smallSpec(), 1, [&] { return ++asked < 2; });
    ASSERT_TRUE(result);
    EXPECT_EQ(result->rows.size(), 1u);
}

TEST(MeasuredMicrobench, BadKindsAndMachinesAreDiagnostics) {
    auto host = target::resolveTarget("host");
    ASSERT_TRUE(host);
    emulator::MicrobenchSpec spec = smallSpec();
    spec.kinds = {"load", "warp"};
    auto unknown = measureMicrobench(*host, spec, 1);
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.diagnostics().front().message.find("no path 'warp'"), std::string::npos);

    auto zeroRepeat = measureMicrobench(*host, smallSpec(), 0);
    ASSERT_FALSE(zeroRepeat);
    EXPECT_NE(zeroRepeat.diagnostics().front().message.find("repeat"), std::string::npos);

    auto accelerator = target::resolveTarget("mncore2");
    ASSERT_TRUE(accelerator);
    spec.kinds = {"mvp", "mvb"};
    auto elsewhere = measureMicrobench(*accelerator, spec, 1);
    ASSERT_FALSE(elsewhere);
    EXPECT_NE(elsewhere.diagnostics().front().message.find("'mncore2' is not the host"), std::string::npos);
}

} // namespace
} // namespace strata::analysis
