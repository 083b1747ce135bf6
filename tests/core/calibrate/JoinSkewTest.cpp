// The last core's lateness at a barrier: read from hand-made traces, fitted on synthetic ground
// truth (JoinSkew.h).

#include "calibrate/JoinSkew.h"

#include <cmath>
#include <gtest/gtest.h>
#include <random>

namespace strata::calibrate {
namespace {

// A program of `cores` streams and `instructions` instructions (the events name them by id).
compiler::Program programOf(int cores, std::size_t instructions) {
    compiler::Program p;
    p.cores = cores;
    p.instructions.resize(instructions);
    return p;
}

trace::Event event(std::uint32_t id, std::uint32_t core, std::int64_t startNs, std::int64_t endNs,
                   trace::EventKind kind = trace::EventKind::Compute, std::int32_t barrier = -1) {
    trace::Event e;
    e.id = id;
    e.core = core;
    e.startPs = startNs * 1000;
    e.endPs = endNs * 1000;
    e.kind = kind;
    e.link = barrier;
    return e;
}

trace::Event barrierEvent(std::uint32_t id, std::uint32_t core, std::int64_t arriveNs,
                          std::int64_t releaseNs, std::int32_t number) {
    return event(id, core, arriveNs, releaseNs, trace::EventKind::Barrier, number);
}

TEST(JoinSkew, SamplesAreTheLastWorkingCoresLatenessOverTheMeanArrival) {
    trace::Trace t;
    t.cores = 2;
    t.events = {// Block 0 from 100 ns: core 0 works to 1,000, core 1 to 1,400; released at 1,450.
                event(0, 0, 100, 1000), event(1, 1, 100, 1400), barrierEvent(2, 0, 1000, 1450, 0),
                barrierEvent(3, 1, 1400, 1450, 0),
                // Block 1: core 1 alone works: no race, no sample.
                event(4, 1, 1450, 2000), barrierEvent(5, 0, 1450, 2010, 1),
                barrierEvent(6, 1, 2000, 2010, 1),
                // Block 2 from 2,010: arrivals 3,010 and 3,110.
                event(7, 0, 2010, 3010), event(8, 1, 2010, 3110), barrierEvent(9, 0, 3010, 3120, 2),
                barrierEvent(10, 1, 3110, 3120, 2)};
    std::vector<JoinSample> samples;
    collectJoinSamples(programOf(2, 11), t, 2e9, samples); // 2 cycles per ns
    ASSERT_EQ(samples.size(), 2u);
    EXPECT_EQ(samples[0].barrier, 0);
    EXPECT_DOUBLE_EQ(samples[0].workCycles, 2 * (1200.0 - 100)); // mean arrival 1,200
    EXPECT_DOUBLE_EQ(samples[0].skewCycles, 2 * 200.0);
    EXPECT_EQ(samples[1].barrier, 2);
    EXPECT_DOUBLE_EQ(samples[1].workCycles, 2 * (3060.0 - 2010));
    EXPECT_DOUBLE_EQ(samples[1].skewCycles, 2 * 50.0);
}

TEST(JoinSkew, OneCoreProgramsAndBarriersACoreMissesGiveNothing) {
    trace::Trace t;
    t.cores = 2;
    t.events = {event(0, 0, 0, 100), event(1, 1, 0, 150), barrierEvent(2, 0, 100, 160, 0)};
    std::vector<JoinSample> samples;
    collectJoinSamples(programOf(2, 3), t, 1e9, samples); // core 1 never reached it
    collectJoinSamples(programOf(1, 3), t, 1e9, samples);
    EXPECT_TRUE(samples.empty());
}

TEST(JoinSkew, ExcessIsTheMeasuredSkewBeyondTheEmulatedOneOfTheSameBarrier) {
    const std::vector<JoinSample> measured{{0, 1000, 300}, {1, 5000, 900}, {2, 800, 50}};
    const std::vector<JoinSample> emulated{{0, 990, 100}, {2, 790, 80}};
    std::vector<JoinSample> excess;
    appendExcessSkews(measured, emulated, excess);
    ASSERT_EQ(excess.size(), 2u);
    EXPECT_EQ(excess[0].barrier, 0);
    EXPECT_DOUBLE_EQ(excess[0].workCycles, 1000);
    EXPECT_DOUBLE_EQ(excess[0].skewCycles, 200);
    EXPECT_EQ(excess[1].barrier, 2);
    EXPECT_DOUBLE_EQ(excess[1].skewCycles, -30);
}

// Ground truth skew = 0.8 * work^0.75 with +-40% log-normal scatter over work from 1e3 to 1e7
// cycles: the fit recovers both within the noise.
TEST(JoinSkew, FitRecoversCoefficientAndExponentFromScatteredSamples) {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> logWork(std::log(1e3), std::log(1e7));
    std::normal_distribution<double> noise(0, 0.4);
    std::vector<JoinSample> samples;
    for (int i = 0; i < 2000; ++i) {
        const double work = std::exp(logWork(random));
        samples.push_back({i, work, 0.8 * std::pow(work, 0.75) * std::exp(noise(random))});
    }
    const target::JoinSkew fit = fitJoinSkew(samples);
    EXPECT_NEAR(fit.exponent, 0.75, 0.03);
    EXPECT_NEAR(fit.cycles(1e5), 0.8 * std::pow(1e5, 0.75), 0.08 * 0.8 * std::pow(1e5, 0.75));
}

TEST(JoinSkew, TooFewOrTooNarrowSamplesFitNothingAndTheExponentStaysInRange) {
    std::vector<JoinSample> narrow; // one factor-2 bin of work only
    for (int i = 0; i < 100; ++i)
        narrow.push_back({i, 1000.0 + i, 50});
    EXPECT_EQ(fitJoinSkew(narrow).coefficient, 0);
    EXPECT_EQ(fitJoinSkew({}).coefficient, 0);

    std::vector<JoinSample> steep; // skew ~ work^2: kept at 1
    for (int i = 0; i < 400; ++i) {
        const double work = 1000.0 * std::pow(2.0, i % 8);
        steep.push_back({i, work, 1e-6 * work * work});
    }
    const target::JoinSkew fit = fitJoinSkew(steep);
    EXPECT_GT(fit.coefficient, 0);
    EXPECT_DOUBLE_EQ(fit.exponent, 1.0);
}

} // namespace
} // namespace strata::calibrate
