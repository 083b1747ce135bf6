#pragma once
// A counter track at any zoom: the time-weighted average of a counter (bandwidth, working
// memory) over each few-pixel bucket of the view, from a running integral, so a frame costs a
// binary search per bucket instead of a walk over every sample (a busy path's bandwidth changes
// at every transfer: hundreds of thousands of samples).

#include "timeline/Viewport.h"
#include "trace/Trace.h"

#include <cstdint>
#include <vector>

namespace strata::timeline {

class CounterSeries {
  public:
    explicit CounterSeries(const trace::Counter& counter);

    // The integral of the counter from its first sample to `ps` (the value is 0 before the first
    // sample and holds after the last).
    double integralTo(double ps) const;
    // The average value over [fromPs, toPs); the value at fromPs when the range is empty.
    double average(double fromPs, double toPs) const;
    double maxValue() const { return m_max; }
    bool empty() const { return m_time.empty(); }

    // Per bucket of `bucketPx` pixels across `view`: its start time and average, appended.
    void buckets(const Viewport& view, double bucketPx, std::vector<double>& keys,
                 std::vector<double>& values) const;

  private:
    std::vector<double> m_time;
    std::vector<double> m_value;
    std::vector<double> m_integral; // up to m_time[i]
    double m_max = 0;
};

} // namespace strata::timeline
