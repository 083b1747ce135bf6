#include "timeline/CounterSeries.h"

#include <gtest/gtest.h>

#include <random>

namespace strata::timeline {
namespace {

trace::Counter counter(std::vector<trace::CounterSample> samples) {
    trace::Counter c;
    c.samples = std::move(samples);
    return c;
}

TEST(CounterSeries, AveragesASteppedValueByTime) {
    // 10 from 100 to 200, 0 until 300, 40 after.
    const CounterSeries s(counter({{100, 10}, {200, 0}, {300, 40}}));
    EXPECT_DOUBLE_EQ(s.integralTo(50), 0);
    EXPECT_DOUBLE_EQ(s.integralTo(150), 500);
    EXPECT_DOUBLE_EQ(s.integralTo(400), 1000 + 4000);
    EXPECT_DOUBLE_EQ(s.average(0, 200), 5);       // half of it before the first sample
    EXPECT_DOUBLE_EQ(s.average(150, 350), (500 + 0 + 2000) / 200.0);
    EXPECT_DOUBLE_EQ(s.average(250, 250), 0);     // empty range: the value there
    EXPECT_DOUBLE_EQ(s.average(320, 320), 40);
    EXPECT_DOUBLE_EQ(s.maxValue(), 40);
}

TEST(CounterSeries, BucketsMatchABruteForceAverage) {
    std::mt19937 rng(9);
    std::uniform_int_distribution<std::int64_t> step(1, 50);
    std::uniform_real_distribution<double> value(0, 100);
    std::vector<trace::CounterSample> samples;
    std::int64_t t = 0;
    for (int i = 0; i < 2000; ++i) {
        t += step(rng);
        samples.push_back({t, value(rng)});
    }
    const CounterSeries s(counter(samples));
    const Viewport view{-100, 37.5, 1000};
    std::vector<double> keys;
    std::vector<double> values;
    s.buckets(view, 2, keys, values);
    ASSERT_EQ(keys.size(), 501u);
    // Brute force: the value at every picosecond of a few buckets.
    for (std::size_t b : {std::size_t{0}, std::size_t{3}, std::size_t{250}, std::size_t{499}}) {
        const auto from = static_cast<std::int64_t>(keys[b]);
        const auto to = static_cast<std::int64_t>(keys[b + 1]);
        double sum = 0;
        for (std::int64_t ps = from; ps < to; ++ps) {
            double v = 0;
            for (const auto& sample : samples)
                if (sample.timePs <= ps)
                    v = sample.value;
            sum += v;
        }
        EXPECT_NEAR(values[b], sum / static_cast<double>(to - from), 1e-6) << "bucket " << b;
    }
}

TEST(CounterSeries, EmptyAndUnsortedCounters) {
    const CounterSeries none(counter({}));
    EXPECT_TRUE(none.empty());
    EXPECT_DOUBLE_EQ(none.average(0, 100), 0);
    const CounterSeries unsorted(counter({{200, 0}, {100, 10}}));
    EXPECT_DOUBLE_EQ(unsorted.average(100, 200), 10);
}

} // namespace
} // namespace strata::timeline
