// A calibration whose transfer fit is poor says so.

#include "calibrate/FitQuality.h"

#include <cmath>
#include <gtest/gtest.h>

namespace strata::calibrate {
namespace {

TEST(FitQuality, APoorPathFitWarnsToRecalibrate) {
    // The load fit of the calibration that priced the zoo's loads +170%.
    const auto warning = poorFitWarning("load", 0.76);
    ASSERT_TRUE(warning.has_value());
    EXPECT_NE(warning->find("'load'"), std::string::npos) << *warning;
    EXPECT_NE(warning->find("76%"), std::string::npos) << *warning;
    EXPECT_NE(warning->find("strata-cli calibrate"), std::string::npos) << *warning;
}

TEST(FitQuality, UsualResidualsAndNoFitSayNothing) {
    EXPECT_FALSE(poorFitWarning("load", 0.26).has_value());
    EXPECT_FALSE(poorFitWarning("store", kPoorFitResidual).has_value());
    EXPECT_FALSE(poorFitWarning("store", 0.0).has_value());
    EXPECT_FALSE(poorFitWarning("store", std::nan("")).has_value()); // a path that was not fitted
}

} // namespace
} // namespace strata::calibrate
