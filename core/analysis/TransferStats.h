#pragma once
// The Transfers tab's numbers (docs/TRANSFERS.md), Qt-free: where the emulator is wrong about
// transfers. Throughput against transfer size per path (seed 004's figure, from a run's own
// transfers binned by size), the sequential ideal (harmonic mean of the paths' throughputs),
// predicted against measured durations matched by instruction id, histograms of their relative
// errors, and per-block errors. Errors are relative to the measured figure, as in
// trace/TraceCompare.h: (predicted - measured) / measured, +0.2 = predicted 20% too slow.

#include "trace/Trace.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace strata::analysis {

// The size bin of a transfer: floor(log2(bytes)), so bin k holds [2^k, 2^(k+1)) bytes; -1 for 0.
int sizeBin(std::uint64_t bytes);

struct SizeBinThroughput {
    int bin = 0;
    double meanBytes = 0;           // of the transfers in the bin: where the point is drawn
    double gbps = 0;                // their bytes over their summed durations (bytes/ns)
    std::size_t transfers = 0;
};

struct PathThroughput {
    std::uint16_t path = trace::kNoPath; // index into the trace's paths
    std::string name;
    std::vector<SizeBinThroughput> bins; // by bin, only bins holding a transfer of positive duration
};

// Per path of `trace` that moved anything, its transfers binned by size. Transfers of zero bytes or
// zero duration are left out (no throughput to speak of).
std::vector<PathThroughput> throughputBySize(const trace::Trace& trace);

// n / sum(1 / v) over the positive values; 0 when there is none.
double harmonicMean(const std::vector<double>& values);

// Seed 004's "sequential ideal": per size bin that at least two paths have, the harmonic mean of
// their throughputs (what one transfer of each kind after the other achieves); drawn at the mean
// of their mean sizes. Empty with fewer than two paths.
std::vector<SizeBinThroughput> sequentialIdeal(const std::vector<PathThroughput>& paths);

// One instruction timed in both runs (same id and kind).
struct MatchedEvent {
    std::uint32_t id = 0;
    trace::EventKind kind = trace::EventKind::Compute;
    std::int32_t block = -1;
    std::uint16_t path = trace::kNoPath; // transfers: the predicted trace's path index
    std::uint64_t bytes = 0;
    double predictedNs = 0;
    double measuredNs = 0;
    double error = 0;               // relative; 0 when the measured duration is 0
    bool hasError() const { return measuredNs > 0; }
};

// The events of `predicted` whose id is in `measured` with the same kind, in `predicted`'s order.
std::vector<MatchedEvent> matchEvents(const trace::Trace& predicted, const trace::Trace& measured);

// The relative errors of the matched events of `kind` with a measured duration above 0.
std::vector<double> relativeErrors(const std::vector<MatchedEvent>& events, trace::EventKind kind);

struct Histogram {
    double low = 0;                 // the first bin's left edge
    double width = 0;               // of every bin
    std::vector<std::size_t> counts;
    std::size_t below = 0;          // values under `low`, and at or over the last edge:
    std::size_t above = 0;          // counted, not dropped, so the total adds up
    double binCentre(std::size_t i) const { return low + (double(i) + 0.5) * width; }
};

// `bins` equal bins over [low, high); bins < 1 or high <= low give no bins (all values below/above).
Histogram histogram(const std::vector<double>& values, double low, double high, int bins);

// The `q` quantile (0..1) of `values`, linearly interpolated between order statistics; 0 for none.
double quantile(std::vector<double> values, double q);

struct BlockError {
    int block = 0;
    double predictedNs = 0;         // the block's span in each run (trace/TraceSummary's time)
    double measuredNs = 0;
    double error = 0;               // relative; 0 when the measured span is 0
};

// Blocks present in both runs, the largest |error| first (ties: lower block id first).
std::vector<BlockError> blockErrors(const trace::Trace& predicted, const trace::Trace& measured);

} // namespace strata::analysis
