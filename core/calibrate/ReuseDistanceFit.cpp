#include "calibrate/ReuseDistanceFit.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace strata::calibrate {
namespace {

struct Bin {
    int index = 0;
    double cost = 0; // cycles per byte
    double weight = 0;
};

// Pool adjacent violators: the least-squares non-decreasing fit of the bins' costs.
void makeNonDecreasing(std::vector<Bin>& bins) {
    std::vector<Bin> pooled; // each: the pooled cost over a run of bins, weight the run's
    std::vector<std::size_t> runs;
    for (const Bin& bin : bins) {
        pooled.push_back(bin);
        runs.push_back(1);
        while (pooled.size() > 1 && pooled[pooled.size() - 2].cost > pooled.back().cost) {
            Bin& a = pooled[pooled.size() - 2];
            const Bin& b = pooled.back();
            a.cost = (a.cost * a.weight + b.cost * b.weight) / (a.weight + b.weight);
            a.weight += b.weight;
            runs[runs.size() - 2] += runs.back();
            pooled.pop_back();
            runs.pop_back();
        }
    }
    std::size_t at = 0;
    for (std::size_t r = 0; r < pooled.size(); ++r)
        for (std::size_t i = 0; i < runs[r]; ++i)
            bins[at++].cost = pooled[r].cost;
}

} // namespace

std::vector<target::DistanceRate> fitReuseDistanceRates(const std::vector<TransferSample>& samples,
                                                        const TransferFit& near,
                                                        double privateCacheBytes) {
    if (!(near.bytesPerCycle > 0))
        return {};
    std::map<int, std::vector<double>> costs; // per bin
    for (const TransferSample& s : samples) {
        if (s.bytes < kMinReuseSampleBytes || (near.spillBytes > 0 && s.bytes > near.spillBytes))
            continue;
        const double moving =
            s.cycles - near.latencyCycles - s.rows * near.rowOverheadCycles -
            target::rampExtraCycles({near.rampBytes, near.rampBytesPerCycle, 0, 0},
                                    near.bytesPerCycle, s.bytes);
        if (!(moving > 0))
            continue;
        const int bin = s.reuseBytes < 2 * kFirstReuseBin
                            ? 0
                            : int(std::floor(std::log2(s.reuseBytes / kFirstReuseBin)));
        costs[bin].push_back(moving / s.bytes);
    }
    std::vector<Bin> bins;
    for (auto& [index, values] : costs)
        if (values.size() >= kMinReuseBinSamples)
            bins.push_back({index, median(values), double(values.size())});
    if (bins.size() < 2)
        return {};
    makeNonDecreasing(bins);
    std::vector<target::DistanceRate> out;
    for (const Bin& bin : bins)
        out.push_back({kFirstReuseBin * std::exp2(bin.index) * std::sqrt(2.0),
                       std::min(near.bytesPerCycle, 1 / bin.cost)});
    // The emulator prices only transfers past the private cache by distance: the points within
    // it but the last (the start of the interpolation past it) are of no use.
    while (out.size() > 1 && out[1].bytes <= privateCacheBytes)
        out.erase(out.begin());
    return out;
}

} // namespace strata::calibrate
