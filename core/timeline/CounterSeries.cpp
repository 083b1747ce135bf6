#include "timeline/CounterSeries.h"

#include <algorithm>
#include <cmath>

namespace strata::timeline {

CounterSeries::CounterSeries(const trace::Counter& counter) {
    std::vector<trace::CounterSample> samples = counter.samples;
    std::stable_sort(samples.begin(), samples.end(),
                     [](const auto& a, const auto& b) { return a.timePs < b.timePs; });
    double area = 0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const double t = static_cast<double>(samples[i].timePs);
        if (i > 0)
            area += m_value.back() * (t - m_time.back());
        m_time.push_back(t);
        m_value.push_back(samples[i].value);
        m_integral.push_back(area);
        m_max = std::max(m_max, samples[i].value);
    }
}

double CounterSeries::integralTo(double ps) const {
    if (m_time.empty() || ps <= m_time.front())
        return 0;
    // The last sample at or before ps.
    const auto it = std::upper_bound(m_time.begin(), m_time.end(), ps);
    const auto i = static_cast<std::size_t>(it - m_time.begin()) - 1;
    return m_integral[i] + m_value[i] * (ps - m_time[i]);
}

double CounterSeries::average(double fromPs, double toPs) const {
    if (m_time.empty())
        return 0;
    if (toPs <= fromPs) {
        if (fromPs < m_time.front())
            return 0;
        const auto it = std::upper_bound(m_time.begin(), m_time.end(), fromPs);
        return m_value[static_cast<std::size_t>(it - m_time.begin()) - 1];
    }
    return (integralTo(toPs) - integralTo(fromPs)) / (toPs - fromPs);
}

void CounterSeries::buckets(const Viewport& view, double bucketPx, std::vector<double>& keys,
                            std::vector<double>& values) const {
    bucketPx = std::max(bucketPx, 1.0);
    const auto count = static_cast<std::size_t>(std::ceil(view.widthPx / bucketPx)) + 1;
    keys.reserve(keys.size() + count);
    values.reserve(values.size() + count);
    for (std::size_t b = 0; b < count; ++b) {
        const double from = view.toPs(static_cast<double>(b) * bucketPx);
        const double to = view.toPs(static_cast<double>(b + 1) * bucketPx);
        keys.push_back(from);
        values.push_back(average(from, to));
    }
}

} // namespace strata::timeline
