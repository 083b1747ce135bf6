// The calibration fits on synthetic measurements made from known parameters (with noise): each
// must recover the parameters within tolerance.

#include "calibrate/Fit.h"

#include "calibrate/BenchPrograms.h"
#include "calibrate/Calibrate.h"

#include <gtest/gtest.h>
#include <random>
#include <string>

namespace strata::calibrate {
namespace {

// Multiplicative noise of +-`amount` (uniform), seeded: the same data every run.
class Noise {
  public:
    explicit Noise(double amount) : m_amount(amount) {}
    double operator()(double value) { return value * (1 + m_amount * m_uniform(m_engine)); }

  private:
    double m_amount;
    std::mt19937 m_engine{12345};
    std::uniform_real_distribution<double> m_uniform{-1.0, 1.0};
};

std::vector<double> sizes() {
    std::vector<double> out;
    for (double b = 64; b <= 64.0 * 1024 * 1024; b *= 2)
        out.push_back(b);
    return out;
}

TEST(FitTransfer, RecoversLatencyAndBandwidth) {
    Noise noise(0.03);
    std::vector<TransferSample> samples;
    for (double bytes : sizes())
        for (int r = 0; r < 3; ++r)
            samples.push_back({bytes, noise(300 + bytes / 12.5)});
    const TransferFit fit = fitTransfer(samples);
    EXPECT_NEAR(fit.latencyCycles, 300, 300 * 0.05);
    EXPECT_NEAR(fit.bytesPerCycle, 12.5, 12.5 * 0.03);
    EXPECT_LT(fit.rmsRelativeError, 0.03);
    EXPECT_GT(fit.rmsRelativeError, 0.005);
    EXPECT_EQ(fit.samples, samples.size());
}

TEST(FitTransfer, ExactDataIsExact) {
    std::vector<TransferSample> samples;
    for (double bytes : sizes())
        samples.push_back({bytes, 40 + bytes / 3});
    const TransferFit fit = fitTransfer(samples);
    EXPECT_NEAR(fit.latencyCycles, 40, 1e-6);
    EXPECT_NEAR(fit.bytesPerCycle, 3, 1e-9);
    EXPECT_LT(fit.rmsRelativeError, 1e-9);
}

TEST(FitTransfer, NegativeInterceptIsClampedToZero) {
    // Pure bandwidth, slightly faster than linear at small sizes: the unconstrained intercept is <
    // 0.
    std::vector<TransferSample> samples;
    for (double bytes : sizes())
        samples.push_back({bytes, bytes / 8 * (bytes < 1024 ? 0.8 : 1.0)});
    const TransferFit fit = fitTransfer(samples);
    EXPECT_EQ(fit.latencyCycles, 0);
    EXPECT_GT(fit.bytesPerCycle, 7);
    EXPECT_LT(fit.bytesPerCycle, 10);
}

TEST(FitTransfer, TooFewSamplesGiveNothing) {
    EXPECT_EQ(fitTransfer({{64, 100}}).bytesPerCycle, 0);
    EXPECT_EQ(fitTransfer({}).samples, 0u);
}

TEST(FitSharedBandwidth, RecoversTheResourceBandwidth) {
    // Path 10 B/cycle, latency 200; the shared bus carries 25 B/cycle: two cores get 10 each
    // (uncontended), three and four get 25/3 and 25/4.
    Noise noise(0.02);
    std::vector<ContendedSample> samples;
    for (int k = 1; k <= 4; ++k)
        for (double bytes : sizes()) {
            const double rate = std::min(10.0, 25.0 / k);
            samples.push_back({bytes, k, noise(200 + bytes / rate)});
        }
    const SharedBandwidthFit fit = fitSharedBandwidth(samples, 200, 10);
    EXPECT_NEAR(fit.bytesPerCycle, 25, 25 * 0.03);
    EXPECT_LT(fit.rmsRelativeError, 0.02);
    EXPECT_EQ(fit.samples, sizes().size() * 3);
    EXPECT_FALSE(fit.atCeiling);
}

TEST(FitSharedBandwidth, NoContentionGivesAtLeastEveryCoreItsPathRate) {
    std::vector<ContendedSample> samples;
    for (int k = 2; k <= 4; ++k)
        for (double bytes : sizes())
            samples.push_back({bytes, k, 100 + bytes / 6});
    const SharedBandwidthFit fit = fitSharedBandwidth(samples, 100, 6);
    EXPECT_GE(fit.bytesPerCycle, 4 * 6 * 0.999);
    EXPECT_LT(fit.rmsRelativeError, 1e-9);
    EXPECT_TRUE(fit.atCeiling); // only a lower bound: calibration does not let it set R
}

TEST(FitCompute, RecoversOverheadAndThroughputPerClass) {
    Noise noise(0.05);
    const double overhead = 120;
    const std::array<double, kOpClasses> throughput{32, 24, 4, 1.5, 3, 2, 0.5, 6, 0};
    std::vector<ComputeSample> samples;
    for (std::size_t c = 0; c + 1 < kOpClasses; ++c)
        for (double work = 256; work <= 4e6; work *= 4)
            samples.push_back({c, work, noise(overhead + work / throughput[c])});
    const ComputeFit fit = fitCompute(samples);
    EXPECT_NEAR(fit.overheadCycles, overhead, overhead * 0.15);
    for (std::size_t c = 0; c + 1 < kOpClasses; ++c) {
        EXPECT_NEAR(fit.throughputPerCycle[c], throughput[c], throughput[c] * 0.05)
            << "class " << c;
        EXPECT_LT(fit.rmsRelativeError[c], 0.05) << "class " << c;
        EXPECT_EQ(fit.samples[c], 7u);
    }
    EXPECT_EQ(fit.throughputPerCycle[8], 0); // no samples of class 8 ("other")
    EXPECT_EQ(fit.samples[8], 0u);
    EXPECT_GT(fit.rmsRelativeErrorAll, 0.005);
}

TEST(FitCompute, WorkThatCostsNothingGetsTheLargestThroughput) {
    std::vector<ComputeSample> samples;
    for (double work = 100; work <= 1e5; work *= 10)
        samples.push_back({2, work, 500});
    const ComputeFit fit = fitCompute(samples);
    EXPECT_NEAR(fit.overheadCycles, 500, 1e-6);
    EXPECT_EQ(fit.throughputPerCycle[2], 1e9);
}

TEST(FitTransfer, RecoversRowOverheadJointlyWithLatencyAndBandwidth) {
    // latency 200, 30 cycles per row, 10 B/cycle; contiguous copies (1 row) and boxes of rows of
    // 64, 256 and 1024 bytes, as calibration measures them.
    Noise noise(0.02);
    std::vector<TransferSample> samples;
    for (double bytes : sizes())
        for (double run : {0.0, 64.0, 256.0, 1024.0}) {
            if (run * 2 > bytes)
                continue;
            const double rows = run > 0 ? bytes / run : 1;
            samples.push_back({bytes, noise(200 + 30 * rows + bytes / 10), rows});
        }
    const TransferFit fit = fitTransfer(samples);
    EXPECT_NEAR(fit.latencyCycles, 200, 200 * 0.1);
    EXPECT_NEAR(fit.rowOverheadCycles, 30, 30 * 0.05);
    EXPECT_NEAR(fit.bytesPerCycle, 10, 10 * 0.03);
    EXPECT_LT(fit.rmsRelativeError, 0.02);
}

TEST(FitTransfer, RowsThatCostNothingGiveNoRowOverhead) {
    // Strided copies a little faster than contiguous ones: the unconstrained row cost is negative.
    std::vector<TransferSample> samples;
    for (double bytes : sizes()) {
        samples.push_back({bytes, 100 + bytes / 8, 1});
        if (bytes >= 512)
            samples.push_back({bytes, 0.95 * (100 + bytes / 8), bytes / 256});
    }
    const TransferFit fit = fitTransfer(samples);
    EXPECT_EQ(fit.rowOverheadCycles, 0);
    EXPECT_GE(fit.latencyCycles, 0);
    EXPECT_NEAR(fit.bytesPerCycle, 8, 8 * 0.1);
}

TEST(FitTransfer, ContiguousSamplesAloneLeaveTheRowOverheadAtZero) {
    std::vector<TransferSample> samples;
    for (double bytes : sizes())
        samples.push_back({bytes, 40 + bytes / 3});
    const TransferFit fit = fitTransfer(samples);
    EXPECT_EQ(fit.rowOverheadCycles, 0);
    EXPECT_NEAR(fit.latencyCycles, 40, 1e-6);
}

TEST(FitTransfer, AKnownRowOverheadLeavesLatencyAndBandwidthToFit) {
    // Contiguous and strided samples of latency 500, 12 cycles per row, 4 B/cycle; the row cost
    // given (as measured elsewhere), the other two are recovered exactly.
    std::vector<TransferSample> samples;
    for (double bytes : sizes()) {
        samples.push_back({bytes, 500 + 12 + bytes / 4, 1});
        if (bytes >= 256)
            samples.push_back({bytes, 500 + 12 * bytes / 128 + bytes / 4, bytes / 128});
    }
    const TransferFit fit = fitTransfer(samples, 12);
    EXPECT_EQ(fit.rowOverheadCycles, 12);
    EXPECT_NEAR(fit.latencyCycles, 500, 1e-6);
    EXPECT_NEAR(fit.bytesPerCycle, 4, 1e-9);
    // A wrong row cost is not refitted: the residual shows it.
    EXPECT_GT(fitTransfer(samples, 40).rmsRelativeError, 0.01);
}

TEST(FitTransfer, RecoversAStoreRowOverheadFromColumnTileRows) {
    // The store programs' shapes (BenchPrograms.h): sizes 64 x 4^k, contiguous and in rows of
    // 1024, 224, 112 and 56 bytes, each box the whole rows that fit (transferBoxBytes). Known:
    // latency 150, 40 cycles per row, 6 B/cycle; +-5% noise. The row cost is recovered: the
    // rows of 56..224 bytes are what separate it from the bandwidth.
    Noise noise(0.05);
    std::vector<TransferSample> samples;
    for (std::uint64_t size = 64; size <= (1u << 20); size *= 4)
        for (std::uint64_t run : {0u, 1024u, 224u, 112u, 56u}) {
            if (run && (run * 2 > size || size / run > 4096))
                continue;
            const double bytes = double(transferBoxBytes(size, run));
            const double rows = run ? bytes / double(run) : 1;
            samples.push_back({bytes, noise(150 + 40 * rows + bytes / 6), rows});
        }
    const TransferFit fit = fitTransfer(samples);
    EXPECT_NEAR(fit.rowOverheadCycles, 40, 4);
    EXPECT_NEAR(fit.bytesPerCycle, 6, 0.6);
    EXPECT_NEAR(fit.latencyCycles, 150, 40);
}

TEST(FitTransfer, TheMedianOfRepeatsIsFittedNotTheFastest) {
    // Each size measured 5 times: 3 typical (latency 300, 10 B/cycle), 2 three times faster. A
    // fit of all samples would lean to the fast ones; the typical line is recovered.
    std::vector<TransferSample> samples;
    for (double bytes : sizes())
        for (int r = 0; r < 5; ++r)
            samples.push_back({bytes, (300 + bytes / 10) / (r < 2 ? 3 : 1)});
    const TransferFit fit = fitTransfer(samples);
    EXPECT_NEAR(fit.latencyCycles, 300, 1e-6);
    EXPECT_NEAR(fit.bytesPerCycle, 10, 1e-9);
    EXPECT_EQ(fit.samples, samples.size());
}

TEST(FitSharedBandwidth, CountsEachSamplesRowsInItsFixedPart) {
    // Path 10 B/cycle, latency 100, 50 cycles per row; bus 15 B/cycle shared by two cores.
    std::vector<ContendedSample> samples;
    for (double bytes : sizes())
        for (double rows : {1.0, bytes / 64})
            samples.push_back({bytes, 2, 100 + 50 * rows + bytes / 7.5, rows});
    const SharedBandwidthFit fit = fitSharedBandwidth(samples, 100, 10, 50);
    EXPECT_NEAR(fit.bytesPerCycle, 15, 15 * 0.01);
    EXPECT_LT(fit.rmsRelativeError, 0.01);
}

TEST(FitCompute, DepthwiseConvolutionsGetTheirOwnThroughput) {
    std::vector<ComputeSample> samples;
    for (double work = 1e3; work <= 1e7; work *= 10) {
        samples.push_back({0, work, 80 + work / 20});                    // dense conv
        samples.push_back({kDepthwiseConvClass, work, 80 + work / 1.5}); // depthwise
        samples.push_back({2, work, 80 + work / 2});                     // elementwise
    }
    const ComputeFit fit = fitCompute(samples);
    EXPECT_NEAR(fit.overheadCycles, 80, 1e-3);
    EXPECT_NEAR(fit.throughputPerCycle[0], 20, 1e-6);
    EXPECT_NEAR(fit.throughputPerCycle[kDepthwiseConvClass], 1.5, 1e-6);
    EXPECT_EQ(fit.samples[kDepthwiseConvClass], 5u);
}

TEST(FitCompute, PointwiseConvolutionsGetTheirOwnThroughput) {
    std::vector<ComputeSample> samples;
    for (double work = 1e3; work <= 1e7; work *= 10) {
        samples.push_back({0, work, 60 + work / 9.5});                  // 3x3 conv
        samples.push_back({kPointwiseConvClass, work, 60 + work / 17}); // 1x1 conv
        samples.push_back({2, work, 60 + work / 2});                    // elementwise
    }
    const ComputeFit fit = fitCompute(samples);
    EXPECT_NEAR(fit.overheadCycles, 60, 1e-3);
    EXPECT_NEAR(fit.throughputPerCycle[0], 9.5, 1e-6);
    EXPECT_NEAR(fit.throughputPerCycle[kPointwiseConvClass], 17, 1e-6);
    EXPECT_EQ(fit.samples[kPointwiseConvClass], 5u);
    EXPECT_EQ(fit.samples[kDepthwiseConvClass], 0u);
}

TEST(FitCompute, OneFlatClassCannotInflateTheSharedOverhead) {
    // Three linear classes with a 100-cycle overhead and one whose time is flat at 1e5 cycles:
    // the overhead stays 100 and elementwise keeps its throughput (not 1e9 per cycle).
    std::vector<ComputeSample> samples;
    for (double work = 1e3; work <= 1e6; work *= 10) {
        samples.push_back({0, work, 100 + work / 16});
        samples.push_back({1, work, 100 + work / 24});
        samples.push_back({2, work, 100 + work / 2});
        samples.push_back({5, work, 1e5});
    }
    const ComputeFit fit = fitCompute(samples);
    EXPECT_NEAR(fit.overheadCycles, 100, 1e-3);
    EXPECT_NEAR(fit.throughputPerCycle[2], 2, 1e-6);
}

TEST(FitCompute, OverheadNeverExceedsTheShortestCompute) {
    // Two classes whose lines both cross far above their smallest samples' times.
    std::vector<ComputeSample> samples;
    for (double work : {1e3, 1e4, 1e6, 1e7}) {
        samples.push_back({2, work, work < 5e3 ? 50 : 5000 + work / 4});
        samples.push_back({4, work, work < 5e3 ? 60 : 5000 + work / 3});
    }
    const ComputeFit fit = fitCompute(samples);
    EXPECT_LE(fit.overheadCycles, 50);
    EXPECT_GT(fit.throughputPerCycle[2], 0);
    EXPECT_LT(fit.throughputPerCycle[2], 1e9);
}

TEST(FitCompute, TheMedianOfRepeatsIsFittedNotTheFastest) {
    // Each work size measured 5 times, 2 of them three times faster than the typical
    // 100 + work / 8: the typical throughput is recovered.
    std::vector<ComputeSample> samples;
    for (double work = 1e3; work <= 1e7; work *= 10)
        for (int r = 0; r < 5; ++r)
            samples.push_back({0, work, (100 + work / 8) / (r < 2 ? 3 : 1)});
    const ComputeFit fit = fitCompute(samples);
    EXPECT_NEAR(fit.throughputPerCycle[0], 8, 1e-6);
    EXPECT_EQ(fit.samples[0], samples.size());
}

// Convolutions paying per output element (dense, pointwise: MACs per output = K) and per output
// row (depthwise: MACs per row = 9 x width), with classes of plain work setting the overhead.
std::vector<ComputeSample> unitCostSamples(double outputCycles, double rowCycles,
                                           Noise* noise = nullptr) {
    std::vector<ComputeSample> samples;
    auto add = [&](std::size_t opClass, double work, double cycles, double units) {
        samples.push_back({opClass, work, noise ? (*noise)(cycles) : cycles, units});
    };
    for (double work = 1e4; work <= 1e7; work *= 10)
        for (std::size_t plain : {std::size_t{1}, std::size_t{2}, std::size_t{4}, std::size_t{6}})
            add(plain, work, 80 + work / 3, 0);
    for (double k : {16.0, 64.0, 288.0, 1152.0})
        for (double work : {1e6, 4e6}) {
            add(kConvClass, work, 80 + work / 12 + work / k * outputCycles, work / k);
            add(kPointwiseConvClass, work, 80 + work / 20 + work / k * outputCycles, work / k);
        }
    for (double width : {7.0, 14.0, 56.0, 112.0})
        for (double work : {1e5, 1e6})
            add(kDepthwiseConvClass, work, 80 + work / 0.8 + work / (9 * width) * rowCycles,
                work / (9 * width));
    return samples;
}

TEST(FitCompute, ConvolutionsUnitCostsAreFittedWithTheirThroughputs) {
    const ComputeFit fit = fitCompute(unitCostSamples(2.0, 40.0));
    EXPECT_NEAR(fit.overheadCycles, 80, 1e-6);
    EXPECT_NEAR(fit.throughputPerCycle[kConvClass], 12, 1e-6);
    EXPECT_NEAR(fit.throughputPerCycle[kPointwiseConvClass], 20, 1e-6);
    EXPECT_NEAR(fit.unitCycles[kConvClass], 2.0, 1e-9); // one cost per output for both
    EXPECT_NEAR(fit.unitCycles[kPointwiseConvClass], 2.0, 1e-9);
    EXPECT_NEAR(fit.throughputPerCycle[kDepthwiseConvClass], 0.8, 1e-9);
    EXPECT_NEAR(fit.unitCycles[kDepthwiseConvClass], 40.0, 1e-6);
    EXPECT_EQ(fit.unitCycles[1], 0); // matmul pays no unit cost
    EXPECT_LT(fit.rmsRelativeErrorAll, 1e-9);
}

TEST(FitCompute, UnitCostsSurviveNoise) {
    Noise noise(0.05);
    const ComputeFit fit = fitCompute(unitCostSamples(2.0, 40.0, &noise));
    EXPECT_NEAR(fit.unitCycles[kConvClass], 2.0, 0.4);
    EXPECT_NEAR(fit.throughputPerCycle[kPointwiseConvClass], 20, 3);
    EXPECT_NEAR(fit.unitCycles[kDepthwiseConvClass], 40.0, 8);
    EXPECT_NEAR(fit.throughputPerCycle[kDepthwiseConvClass], 0.8, 0.1);
}

TEST(FitCompute, UnitsThatCostNothingGiveNoUnitCost) {
    const ComputeFit fit = fitCompute(unitCostSamples(0.0, 0.0));
    EXPECT_NEAR(fit.throughputPerCycle[kConvClass], 12, 1e-6);
    EXPECT_NEAR(fit.unitCycles[kConvClass], 0, 1e-9);
    EXPECT_NEAR(fit.unitCycles[kDepthwiseConvClass], 0, 1e-9);
}

TEST(FitCompute, UnitsInProportionToWorkCannotBeToldApartAndCostNothing) {
    // Every depthwise sample on the same width: its rows grow with its work, so a per-row cost is
    // indistinguishable from a slower rate: all of it goes to the rate.
    std::vector<ComputeSample> samples;
    for (double work = 1e4; work <= 1e7; work *= 10) {
        samples.push_back({2, work, 80 + work / 3, 0});
        samples.push_back(
            {kDepthwiseConvClass, work, 80 + work / 0.8 + work / 126 * 40, work / 126});
    }
    const ComputeFit fit = fitCompute(samples);
    EXPECT_EQ(fit.unitCycles[kDepthwiseConvClass], 0);
    EXPECT_NEAR(fit.throughputPerCycle[kDepthwiseConvClass], 1 / (1 / 0.8 + 40.0 / 126), 1e-6);
}

TEST(FitCompute, ReductionsPayPerElementReadAndPerOutput) {
    // Synthetic ground truth: 2 elements read per cycle plus 30 cycles per output, on planes of
    // 3,136 and 49 elements and rows of 768 (the shapes calibration measures), with three linear
    // classes beside them fixing the shared overhead at 80.
    std::vector<ComputeSample> samples;
    for (double outputs : {64.0, 256.0, 1024.0}) {
        for (double perOutput : {3136.0, 49.0, 768.0}) {
            const double reads = outputs * perOutput;
            samples.push_back({kReductionClass, reads, 80 + reads / 2 + outputs * 30, outputs});
        }
        samples.push_back({2, outputs * 100, 80 + outputs * 100 / 3, 0});
        samples.push_back({1, outputs * 1000, 80 + outputs * 1000 / 24, 0});
        samples.push_back({4, outputs * 50, 80 + outputs * 50 / 1.5, 0});
    }
    const ComputeFit fit = fitCompute(samples);
    EXPECT_NEAR(fit.overheadCycles, 80, 1e-3);
    EXPECT_NEAR(fit.throughputPerCycle[kReductionClass], 2, 1e-6);
    EXPECT_NEAR(fit.unitCycles[kReductionClass], 30, 1e-6);
    EXPECT_EQ(fit.unitCycles[kConvClass], 0); // the groups are apart
    EXPECT_EQ(computeClassName(kResizeClass), "resize");
    EXPECT_EQ(computeClassName(kGatherClass), "gather");
}

TEST(FitCompute, GroupedConvolutionsPayPerIm2colRow) {
    // Synthetic ground truth: grouped convolutions at 30 MACs per cycle plus 25 cycles per
    // im2col row, on groups of 16 channels over 28 x 28 (448 MACs per row) and of 8 over 7 x 7
    // (56: calibration's two series), with three linear classes fixing the overhead at 80.
    std::vector<ComputeSample> samples;
    for (double scale : {1.0, 2.0, 4.0, 8.0}) {
        for (double macsPerRow : {448.0, 56.0}) {
            const double rows = scale * 64 * 9 * (macsPerRow == 448 ? 28 : 7);
            const double macs = rows * macsPerRow;
            samples.push_back({kGroupedConvClass, macs, 80 + macs / 30 + rows * 25, rows});
        }
        samples.push_back({2, scale * 1e5, 80 + scale * 1e5 / 3, 0});
        samples.push_back({1, scale * 1e6, 80 + scale * 1e6 / 24, 0});
        samples.push_back({4, scale * 5e4, 80 + scale * 5e4 / 1.5, 0});
    }
    const ComputeFit fit = fitCompute(samples);
    EXPECT_NEAR(fit.overheadCycles, 80, 1e-3);
    EXPECT_NEAR(fit.throughputPerCycle[kGroupedConvClass], 30, 1e-6);
    EXPECT_NEAR(fit.unitCycles[kGroupedConvClass], 25, 1e-6);
    EXPECT_EQ(fit.unitCycles[kConvClass], 0); // the groups are apart
}

TEST(FitCompute, BatchedMatrixProductsPayPerPair) {
    // Synthetic ground truth: matrix products at 40 MACs per cycle plus 3,000 cycles per matrix
    // pair of a batch, on one large product per scale (no pairs counted: its rows fold) and
    // calibration's two batched series (4 x scale pairs of 77 K MACs, scale pairs of 1 M), with
    // two linear classes fixing the overhead at 80.
    std::vector<ComputeSample> samples;
    for (double scale : {1.0, 2.0, 4.0, 8.0}) {
        const double large = scale * 64 * 256 * 256;
        samples.push_back({kMatMulClass, large, 80 + large / 40, 0});
        for (auto [pairs, macsPerPair] :
             {std::pair{4 * scale, 49.0 * 49 * 32}, std::pair{scale, 128.0 * 128 * 64}})
            samples.push_back({kMatMulClass, pairs * macsPerPair,
                               80 + pairs * macsPerPair / 40 + pairs * 3000, pairs});
        samples.push_back({2, scale * 1e5, 80 + scale * 1e5 / 3, 0});
        samples.push_back({4, scale * 5e4, 80 + scale * 5e4 / 1.5, 0});
    }
    const ComputeFit fit = fitCompute(samples);
    EXPECT_NEAR(fit.overheadCycles, 80, 1e-3);
    EXPECT_NEAR(fit.throughputPerCycle[kMatMulClass], 40, 1e-6);
    EXPECT_NEAR(fit.unitCycles[kMatMulClass], 3000, 1e-3);
}

TEST(FitCompute, ResizesPayPerTapAndPerOutputRow) {
    // Synthetic ground truth: resizes weigh 1.5 taps per cycle and pay 40 cycles per output row,
    // on calibration's three series (nearest 28 -> 56: one tap per output, rows of 56; bilinear
    // 28 -> 56 and 7 -> 14: four taps, rows of 56 and 14), two linear classes fixing the overhead.
    std::vector<ComputeSample> samples;
    for (double scale : {1.0, 2.0, 4.0, 8.0}) {
        for (auto [channels, width, taps] :
             {std::tuple{16 * scale, 56.0, 1.0}, std::tuple{16 * scale, 56.0, 4.0},
              std::tuple{64 * scale, 14.0, 4.0}}) {
            const double outputs = channels * width * width, rows = channels * width;
            samples.push_back(
                {kResizeClass, outputs * taps, 80 + outputs * taps / 1.5 + rows * 40, rows});
        }
        samples.push_back({2, scale * 1e5, 80 + scale * 1e5 / 3, 0});
        samples.push_back({4, scale * 5e4, 80 + scale * 5e4 / 1.5, 0});
    }
    const ComputeFit fit = fitCompute(samples);
    EXPECT_NEAR(fit.overheadCycles, 80, 1e-3);
    EXPECT_NEAR(fit.throughputPerCycle[kResizeClass], 1.5, 1e-6);
    EXPECT_NEAR(fit.unitCycles[kResizeClass], 40, 1e-4);
}

TEST(FitCompute, GlobalPoolsGetTheirOwnThroughputPerElementRead) {
    // Synthetic ground truth: global pools read 0.3 elements per cycle over 7 x 7 planes of 256
    // channels and 56 x 56 planes of 64 (calibration's shapes, their work in elements read);
    // windowed pools run at 5 outputs per cycle and elementwise ops at 3, all with an overhead
    // of 80.
    std::vector<ComputeSample> samples;
    for (double scale : {1.0, 2.0, 4.0}) {
        for (double reads : {scale * 256 * 49, scale * 64 * 3136})
            samples.push_back({kGlobalPoolClass, reads, 80 + reads / 0.3, 0});
        samples.push_back({4, scale * 25088, 80 + scale * 25088 / 5, 0});
        samples.push_back({2, scale * 1e5, 80 + scale * 1e5 / 3, 0});
    }
    const ComputeFit fit = fitCompute(samples);
    EXPECT_NEAR(fit.overheadCycles, 80, 1e-3);
    EXPECT_NEAR(fit.throughputPerCycle[kGlobalPoolClass], 0.3, 1e-9);
    EXPECT_NEAR(fit.throughputPerCycle[4], 5, 1e-6); // windowed pools keep their own figure
    EXPECT_EQ(fit.samples[kGlobalPoolClass], 6u);
    EXPECT_EQ(fit.unitCycles[kGlobalPoolClass], 0); // in no unit group
    EXPECT_EQ(computeClassName(kGlobalPoolClass), "global_pool");
}

TEST(FitCompute, TranscendentalOpsGetTheirOwnThroughput) {
    std::vector<ComputeSample> samples;
    for (double work = 1e3; work <= 1e7; work *= 10) {
        samples.push_back({2, work, 70 + work / 1.4});                     // Add, Relu
        samples.push_back({kTranscendentalClass, work, 70 + work / 0.06}); // Erf, Sigmoid
    }
    const ComputeFit fit = fitCompute(samples);
    EXPECT_NEAR(fit.throughputPerCycle[2], 1.4, 1e-6);
    EXPECT_NEAR(fit.throughputPerCycle[kTranscendentalClass], 0.06, 1e-9);
    EXPECT_EQ(computeClassName(kTranscendentalClass), "transcendental");
    EXPECT_EQ(computeClassName(kSigmoidClass), "sigmoid");
    EXPECT_EQ(computeClassName(kLayerNormClass), "layer_norm");
}

// The load programs' shapes (BenchPrograms.h, Calibrate.cpp): sizes 64 x 4^k up to 1 MiB,
// contiguous and in rows of 1024, 256 and 64 bytes; latency 200, 12 cycles per row, 12 B/cycle,
// +-`noise`. `slowShape` (an index, or -1) is measured 3x slower: a slow spell of the machine.
std::vector<TransferSample> loadShapes(double noiseAmount, int slowShape = -1) {
    Noise noise(noiseAmount);
    std::vector<TransferSample> samples;
    for (std::uint64_t size = 64; size <= (1u << 20); size *= 4)
        for (std::uint64_t run : {0u, 1024u, 256u, 64u}) {
            if (run && (run * 2 > size || size / run > 4096))
                continue;
            const double bytes = double(transferBoxBytes(size, run));
            const double rows = run ? bytes / double(run) : 1;
            const double slow = int(samples.size()) == slowShape ? 3 : 1;
            samples.push_back({bytes, slow * noise(200 + 12 * rows + bytes / 12), rows});
        }
    return samples;
}

TEST(FitTransfer, OneSlowShapeMovesNoFigureFar) {
    // Each shape in turn 3x slower: latency moves by at most 10%, the row overhead and the
    // bandwidth by at most 5% from the fit without it (without the reweighting, some move the
    // row overhead by 8%).
    const TransferFit clean = fitTransfer(loadShapes(0.03));
    EXPECT_NEAR(clean.latencyCycles, 200, 30);
    EXPECT_NEAR(clean.bytesPerCycle, 12, 0.5);
    const int shapes = int(loadShapes(0).size());
    for (int slow = 0; slow < shapes; ++slow) {
        const TransferFit fit = fitTransfer(loadShapes(0.03, slow));
        EXPECT_NEAR(fit.latencyCycles, clean.latencyCycles, 0.10 * clean.latencyCycles)
            << "slow shape " << slow;
        EXPECT_NEAR(fit.rowOverheadCycles, clean.rowOverheadCycles, 0.05 * clean.rowOverheadCycles)
            << "slow shape " << slow;
        EXPECT_NEAR(fit.bytesPerCycle, clean.bytesPerCycle, 0.05 * clean.bytesPerCycle)
            << "slow shape " << slow;
        EXPECT_GE(fit.downweighted, 1u) << "slow shape " << slow;
    }
}

TEST(FitTransfer, StandardErrorsFollowTheNoise) {
    // Exact data: no uncertainty; noisy data: some, and the true figures within three of it.
    const TransferFit exact = fitTransfer(loadShapes(0));
    EXPECT_LT(exact.latencyRelativeError, 1e-6);
    EXPECT_LT(exact.bandwidthRelativeError, 1e-6);
    const TransferFit noisy = fitTransfer(loadShapes(0.10));
    EXPECT_GT(noisy.latencyRelativeError, 0.005);
    EXPECT_GT(noisy.rowOverheadRelativeError, 0.001);
    EXPECT_GT(noisy.bandwidthRelativeError, 0.001);
    EXPECT_NEAR(noisy.latencyCycles, 200, 3 * noisy.latencyRelativeError * noisy.latencyCycles);
    EXPECT_NEAR(noisy.bytesPerCycle, 12, 3 * noisy.bandwidthRelativeError * noisy.bytesPerCycle);
    EXPECT_TRUE(trustworthy(noisy));
}

TEST(FitTransfer, ALatencyTheSizesDoNotPinDownIsSaidButNotRefused) {
    // Only large transfers (64 KiB..64 MiB), +-10%: a latency of 1,000 cycles is lost in the noise
    // of the byte term (this data's fit puts it at ~550). The bandwidth is sure: the fit is kept,
    // and the uncertain latency named.
    Noise noise(0.10);
    std::vector<TransferSample> samples;
    for (double bytes = 65536; bytes <= 64.0 * 1024 * 1024; bytes *= 2)
        for (int r = 0; r < 3; ++r)
            samples.push_back({bytes, noise(1000 + bytes / 12)});
    const TransferFit fit = fitTransfer(samples);
    EXPECT_GT(fit.latencyRelativeError, kMaxFigureRelativeError);
    EXPECT_TRUE(trustworthy(fit));
    EXPECT_NE(uncertainFigures(fit).find("latency uncertain by"), std::string::npos)
        << uncertainFigures(fit);
    EXPECT_EQ(uncertainFigures(fitTransfer(loadShapes(0.03))), "");
}

TEST(FitTransfer, ABandwidthTheSizesDoNotPinDownIsRefused) {
    // Only small transfers (64..512 bytes) of latency 2,000 cycles, +-20%: the byte term (at most
    // 43 cycles) is lost in the noise. Refused, and the reason names the bandwidth.
    Noise noise(0.20);
    std::vector<TransferSample> samples;
    for (double bytes = 64; bytes <= 512; bytes *= 2)
        for (int r = 0; r < 3; ++r)
            samples.push_back({bytes, noise(2000 + bytes / 12)});
    const TransferFit fit = fitTransfer(samples);
    std::string why;
    ASSERT_GT(fit.bytesPerCycle, 0);
    EXPECT_GT(fit.bandwidthRelativeError, kMaxFigureRelativeError);
    EXPECT_FALSE(trustworthy(fit, &why));
    EXPECT_NE(why.find("bandwidth uncertain by"), std::string::npos) << why;
    EXPECT_FALSE(trustworthy(TransferFit{}, &why));
    EXPECT_EQ(why, "no bandwidth fitted");
}

TEST(FitSharedBandwidth, OneSlowContendedProgramDoesNotMoveTheBus) {
    // As RecoversTheResourceBandwidth, each sample in turn 4x slower (another process on the bus).
    std::vector<ContendedSample> samples;
    for (int k = 2; k <= 4; ++k)
        for (double bytes : sizes())
            samples.push_back({bytes, k, 200 + bytes / std::min(10.0, 25.0 / k)});
    for (std::size_t slow = 0; slow < samples.size(); ++slow) {
        std::vector<ContendedSample> disturbed = samples;
        disturbed[slow].cycles *= 4;
        EXPECT_NEAR(fitSharedBandwidth(disturbed, 200, 10).bytesPerCycle, 25, 25 * 0.02)
            << "slow sample " << slow;
    }
}

TEST(FitMedian, OddEvenAndEmpty) {
    EXPECT_EQ(median({}), 0);
    EXPECT_EQ(median({5, 1, 3}), 3);
    EXPECT_EQ(median({4, 1, 3, 100}), 3.5);
}

// Computes on one core run their work (cycles beyond the overhead) at a known factor of what
// the every-core fit predicts: the factor comes back; tiny computes, whose time is mostly the
// overhead, do not decide it.
TEST(FitOneCoreWorkFactor, RecoversTheFactorOfTheWorkBeyondTheOverhead) {
    Noise noise(0.02);
    ComputeFit fit;
    fit.overheadCycles = 300;
    fit.throughputPerCycle[0] = 40;
    fit.throughputPerCycle[2] = 4;
    std::vector<ComputeSample> oneCore;
    for (double work = 4e4; work <= 4e6; work *= 2) {
        oneCore.push_back({0, work, noise(300 + 0.9 * work / 40)});
        oneCore.push_back({2, work / 10, noise(300 + 0.9 * work / 10 / 4)});
    }
    oneCore.push_back({2, 100, 5000}); // work 25 cycles, under twice the overhead: left out
    EXPECT_EQ(predictedCycles(fit, {0, 4e4, 0}), 300 + 1000);
    EXPECT_NEAR(fitOneCoreWorkFactor(fit, oneCore), 0.9, 0.01);
}

TEST(FitOneCoreWorkFactor, NoUsableSamplesOrUnfittedClassesGiveOne) {
    ComputeFit fit;
    fit.overheadCycles = 300;
    fit.throughputPerCycle[0] = 40;
    EXPECT_EQ(fitOneCoreWorkFactor(fit, {}), 1);
    EXPECT_EQ(fitOneCoreWorkFactor(fit, {{0, 1000, 400}}), 1); // work 25 cycles: too small
    EXPECT_EQ(fitOneCoreWorkFactor(fit, {{5, 1e6, 9000}}), 1); // class 5 has no throughput
    EXPECT_EQ(fitOneCoreWorkFactor(fit, {{0, 1e6, 1e9}}), 2);  // bounded
}

} // namespace
} // namespace strata::calibrate
