#pragma once
// The least-squares fits calibration makes from measurements (docs/CALIBRATION.md). Pure
// functions of samples, so they are tested on synthetic data with known parameters. Every fit
// minimises relative residuals, (predicted - measured) / measured, so a 64-byte copy counts as
// much as a 64 MiB one, and reports their root mean square.

#include <array>
#include <cstddef>
#include <vector>

namespace strata::calibrate {

// One transfer measured alone: its bytes and its duration in cycles.
struct TransferSample {
    double bytes = 0;
    double cycles = 0;
};

// duration = latency + bytes / bytesPerCycle.
struct TransferFit {
    double latencyCycles = 0;
    double bytesPerCycle = 0;
    double rmsRelativeError = 0;
    std::size_t samples = 0;
};

// Weighted linear least squares on (bytes, cycles); a negative latency is clamped to 0 and the
// bandwidth refitted. Needs at least two distinct sizes (otherwise bytesPerCycle = 0).
TransferFit fitTransfer(const std::vector<TransferSample>& samples);

// A transfer measured while `concurrency` cores each moved the same size on paths sharing one
// resource at the same time.
struct ContendedSample {
    double bytes = 0;
    int concurrency = 1;
    double cycles = 0;
};

struct SharedBandwidthFit {
    double bytesPerCycle = 0;       // of the shared resource
    double rmsRelativeError = 0;
    std::size_t samples = 0;
};

// The shared resource's bandwidth R under the emulator's fair sharing: each of k concurrent
// transfers moves at min(pathBytesPerCycle, R / k), so it takes latency + bytes / that. R is
// searched on a fine logarithmic grid from pathBytesPerCycle to (highest concurrency + 1) x
// pathBytesPerCycle (no contention seen: the top of the range). Samples of concurrency 1 are
// ignored.
SharedBandwidthFit fitSharedBandwidth(const std::vector<ContendedSample>& samples, double latencyCycles,
                                      double pathBytesPerCycle);

inline constexpr std::size_t kOpClasses = 9; // ir::OpClass values

// One compute instruction measured: its op class (ir::OpClass index), its work (MACs for conv
// and matmul, output elements otherwise: emulator::computeWork) and its duration in cycles.
struct ComputeSample {
    std::size_t opClass = 0;
    double work = 0;
    double cycles = 0;
};

// cycles = overhead + work / throughput[class], one overhead shared by all classes: the median of
// the classes' own intercepts (each class's relative least-squares line, clamped at 0), then
// each class's throughput by relative least squares with that overhead fixed.
struct ComputeFit {
    double overheadCycles = 0;
    std::array<double, kOpClasses> throughputPerCycle{}; // 0 for a class without samples
    std::array<double, kOpClasses> rmsRelativeError{};   // per class
    std::array<std::size_t, kOpClasses> samples{};
    double rmsRelativeErrorAll = 0;
};

ComputeFit fitCompute(const std::vector<ComputeSample>& samples);

// The median of `values` (0 for none): fixed overheads are robust medians, not means, since a
// preempted thread adds outliers of milliseconds.
double median(std::vector<double> values);

} // namespace strata::calibrate
