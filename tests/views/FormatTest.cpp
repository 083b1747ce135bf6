#include "views/Format.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>

namespace strata::views {
namespace {

std::string s(const QString& text) {
    return text.toStdString();
}

TEST(FormatFlops, ScalesBySiPrefixesWithThreeSignificantDigits) {
    EXPECT_EQ(s(formatFlops(0)), "0 FLOP");
    EXPECT_EQ(s(formatFlops(512)), "512 FLOP");
    EXPECT_EQ(s(formatFlops(1000)), "1 kFLOP");
    EXPECT_EQ(s(formatFlops(1234)), "1.23 kFLOP");
    EXPECT_EQ(s(formatFlops(1.23e9)), "1.23 GFLOP");
    EXPECT_EQ(s(formatFlops(45.6e12)), "45.6 TFLOP");
    EXPECT_EQ(s(formatFlops(123.4e6)), "123 MFLOP");
    EXPECT_EQ(s(formatFlops(2e18)), "2000 PFLOP"); // no unit beyond peta
}

TEST(FormatFlops, RoundingCarriesIntoTheNextUnit) {
    EXPECT_EQ(s(formatFlops(999.7)), "1 kFLOP");
    EXPECT_EQ(s(formatFlops(999'996)), "1 MFLOP");
}

TEST(FormatFlops, NonFiniteIsNotANumber) {
    EXPECT_EQ(s(formatFlops(std::numeric_limits<double>::infinity())), "n/a");
    EXPECT_EQ(s(formatFlops(std::nan(""))), "n/a");
}

TEST(FormatBytes, ScalesByBinaryPrefixes) {
    EXPECT_EQ(s(formatBytes(0)), "0 B");
    EXPECT_EQ(s(formatBytes(1023)), "1023 B");
    EXPECT_EQ(s(formatBytes(1024)), "1 KiB");
    EXPECT_EQ(s(formatBytes(4'718'592)), "4.5 MiB");
    EXPECT_EQ(s(formatBytes(1'320'702'444)), "1.23 GiB");
    EXPECT_EQ(s(formatBytes(100ull << 20)), "100 MiB");
    EXPECT_EQ(s(formatBytes(std::numeric_limits<std::uint64_t>::max())), "16384 PiB");
}

TEST(FormatCount, UsesSiSuffixes) {
    EXPECT_EQ(s(formatCount(950)), "950");
    EXPECT_EQ(s(formatCount(11'689'512)), "11.7 M");
    EXPECT_EQ(s(formatCount(25'557'032)), "25.6 M");
    EXPECT_EQ(s(formatCount(1'500)), "1.5 k");
}

TEST(FormatInteger, GroupsThousands) {
    EXPECT_EQ(s(formatInteger(0)), "0");
    EXPECT_EQ(s(formatInteger(999)), "999");
    EXPECT_EQ(s(formatInteger(1000)), "1,000");
    EXPECT_EQ(s(formatInteger(25'557'032)), "25,557,032");
}

TEST(FormatShape, JoinsDimsAndNamesScalars) {
    EXPECT_EQ(s(formatShape({1, 3, 224, 224})), "1x3x224x224");
    EXPECT_EQ(s(formatShape({})), "scalar");
}

} // namespace
} // namespace strata::views
