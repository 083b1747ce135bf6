#include "calibrate/WarmWeightFit.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace strata::calibrate {
namespace {

// What the cold figures charge for a shape's bytes and rows, latency aside.
double streamCycles(const TransferFit& cold, double bytes, double rows) {
    double cycles = rows * cold.rowOverheadCycles + bytes / cold.bytesPerCycle;
    if (cold.rampBytes > 0 && cold.rampBytesPerCycle > 0)
        cycles +=
            std::min(bytes, cold.rampBytes) * (1 / cold.rampBytesPerCycle - 1 / cold.bytesPerCycle);
    if (cold.spillBytes > 0 && cold.spillBytesPerCycle > 0 && bytes > cold.spillBytes)
        cycles +=
            (bytes - cold.spillBytes) * (1 / cold.spillBytesPerCycle - 1 / cold.bytesPerCycle);
    return cycles;
}

} // namespace

TransferFit fitWarmWeightLatency(const std::vector<TransferSample>& samples,
                                 const TransferFit& cold) {
    TransferFit fit = cold;
    fit.samples = 0;
    fit.latencyRelativeError = fit.bandwidthRelativeError = fit.rowOverheadRelativeError = 0;
    fit.rampRelativeError = fit.spillRelativeError = 0;
    fit.downweighted = 0;
    if (!(cold.bytesPerCycle > 0))
        return fit;
    std::map<std::pair<double, double>, std::vector<double>> shapes;
    for (const TransferSample& s : samples)
        if (s.bytes / cold.bytesPerCycle < cold.latencyCycles)
            shapes[{s.bytes, s.rows}].push_back(s.cycles);
    if (shapes.size() < kMinLatencyShapes)
        return fit;
    std::vector<double> latencies;
    std::size_t count = 0;
    for (const auto& [shape, cycles] : shapes) {
        latencies.push_back(median(cycles) - streamCycles(cold, shape.first, shape.second));
        count += cycles.size();
    }
    fit.latencyCycles = std::max(0.0, median(latencies));
    fit.samples = count;
    // Residuals relative to each shape's median time, as the other fits report them.
    double sumShape = 0, sumAll = 0;
    for (const auto& [shape, cycles] : shapes) {
        const double predicted = fit.latencyCycles + streamCycles(cold, shape.first, shape.second);
        const double m = median(cycles);
        sumShape += std::pow((predicted - m) / m, 2);
        for (double c : cycles)
            sumAll += std::pow((predicted - c) / c, 2);
    }
    fit.shapeRmsRelativeError = std::sqrt(sumShape / double(shapes.size()));
    fit.rmsRelativeError = std::sqrt(sumAll / double(count));
    return fit;
}

} // namespace strata::calibrate
