// What the weight-read fit is made of, from a real (--quick) calibration of this machine: the
// model-like chains' reads on both cores and, past them, one core's read of the far weights'
// matrix, measured with the other core idle (docs/CALIBRATION.md, weight_reads).

#include "calibrate/Calibrate.h"
#include "support/TestModels.h"
#include "target/TargetLoader.h"

#include <gtest/gtest.h>

namespace strata::test {
namespace {

TEST(WeightReadSamples, IncludeOneCoresReadOfWeightsFarPastItsCache) {
    auto host = target::resolveTarget("host-uncalibrated");
    ASSERT_TRUE(host.ok()) << joined(host.diagnostics());
    if (host->cores() < 2 || host->privateCacheBytes == 0)
        GTEST_SKIP() << "one core, or no private cache probed: no far weights to read alone";
    calibrate::CalibrateOptions options;
    options.quick = true;
    auto report = calibrate::calibrateHost(*host, options);
    ASSERT_TRUE(report.ok()) << joined(report.diagnostics());
    const auto weight = static_cast<std::size_t>(target::ReadKind::Weight);
    std::size_t farAlone = 0, chains = 0;
    for (const calibrate::PathReport& path : report->paths)
        for (const calibrate::TransferSample& s : path.kindData[weight]) {
            // The chains' largest are 2.25 private caches (4.5 MiB on a 2 MiB L2); the far
            // matrix holds eight.
            if (s.bytes >= 4.0 * double(host->privateCacheBytes))
                farAlone += s.concurrent < 0.5 ? 1 : 0;
            else
                ++chains;
        }
    EXPECT_GE(farAlone, 1u) << "no read of the far weights by one core alone";
    EXPECT_GT(chains, 20u);
}

} // namespace
} // namespace strata::test
