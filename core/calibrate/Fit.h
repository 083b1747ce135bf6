#pragma once
// The least-squares fits calibration makes from measurements (docs/CALIBRATION.md). Pure
// functions of samples, so they are tested on synthetic data with known parameters. Every fit
// minimises relative residuals, (predicted - measured) / measured, so a 64-byte copy counts as
// much as a 64 MiB one, and reports their root mean square.

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace strata::calibrate {

// One transfer measured alone: its bytes, its duration in cycles, and the contiguous rows it
// copies (emulator::transferRows; 1 for a contiguous copy).
struct TransferSample {
    double bytes = 0;
    double cycles = 0;
    double rows = 1;
    // Share of its time another core's transfer was running too (measured; 0 for the one-core
    // programs), written by `calibrate --samples` for fitting offline.
    double concurrent = 0;
    // A cached read's or store's reuse distance: bytes its core moved since it last moved those
    // lines (emulator::Step::reuseBytes); 0 for the rest.
    double reuseBytes = 0;
};

// duration = latency + rows x rowOverhead + bytes / bytesPerCycle.
struct TransferFit {
    double latencyCycles = 0;
    double rowOverheadCycles = 0;
    double bytesPerCycle = 0;
    double rmsRelativeError = 0; // over every sample
    // Over the per-shape medians the figures were fitted to: what figures can explain. Repeats
    // of one shape scatter in a way no figures remove (with a 17 MiB scratch, compiled loads of
    // 128 KiB took 3,000-15,000 cycles: the tile in the core's L2 or not), which inflates the RMS
    // over samples (1.11 with figures that fit the shapes to 0.21) but not this one. A fit is
    // judged by it (trustworthy, FitQuality.h's poor fits).
    double shapeRmsRelativeError = 0;
    std::size_t samples = 0;
    // How well the samples pin each figure down: its standard error from the fit's (robustly
    // weighted) residuals, relative to the figure; 0 for a figure held fixed or at 0. A latency
    // traded against the bandwidth by a few large samples shows here as a large error.
    double latencyRelativeError = 0;
    double rowOverheadRelativeError = 0;
    double bandwidthRelativeError = 0;
    std::size_t downweighted = 0; // shapes the robust weights counted at less than half
    // fitTransferWithRamp's ramp (target::Ramp): the first rampBytes of a transfer at
    // rampBytesPerCycle, the rest at bytesPerCycle; 0 when none was fitted.
    double rampBytes = 0;
    double rampBytesPerCycle = 0;
    double rampRelativeError = 0; // of the ramp's extra cycles per byte
    // fitTransferWithRamp's spill (target::Ramp::spillBytes): bytes past spillBytes at
    // spillBytesPerCycle; 0 when none was fitted.
    double spillBytes = 0;
    double spillBytesPerCycle = 0;
    double spillRelativeError = 0; // of the spill's extra cycles per byte
};

// Whether a fit can be written to a target: a bandwidth, its standard error and the residuals
// over shapes (shapeRmsRelativeError) within bounds (kMaxFigureRelativeError, kMaxTransferRms).
// Otherwise `why` says which, for the report. An uncertain latency or row overhead alone does not
// refuse a fit: falling back to figures of another regime (the isolated programs', the path's own
// for a kind of read) would move predictions far more than the uncertainty does; uncertainFigures()
// says it instead.
inline constexpr double kMaxTransferRms = 1.0;
inline constexpr double kMaxFigureRelativeError = 0.25;
bool trustworthy(const TransferFit& fit, std::string* why = nullptr);

// "latency uncertain by +-61%" (and the row overhead's, comma-separated) for the fitted figures
// whose standard error exceeds kMaxFigureRelativeError; "" when none does.
std::string uncertainFigures(const TransferFit& fit);

// Relative least squares of the three figures jointly over the median time of each (bytes, rows)
// shape (repeats of a shape scatter; a timeline's transfers are typical, not the fastest), none
// negative, made robust by iteratively reweighting (Huber weights on the relative residuals,
// scale from their median absolute deviation: one shape caught in a slow spell cannot pull the
// latency far): the best of the fits with
// some of latency and row overhead held at 0 (an exact non-negative least squares for three
// unknowns). The row overhead is fitted only when some sample has more than one row. Needs at
// least two distinct sizes (otherwise bytesPerCycle = 0). A `fixedRowOverheadCycles` >= 0 is
// taken as known: only latency and bandwidth are fitted.
TransferFit fitTransfer(const std::vector<TransferSample>& samples, double fixedRowOverheadCycles = -1);

// The same with a ramp (target::Ramp): duration = latency + rows x rowOverhead + bytes /
// bytesPerCycle + min(bytes, R) x (1 / rampBytesPerCycle - 1 / bytesPerCycle). R is searched on
// rampGrid(), the other figures fitted as above for each R (the ramp's extra cycles per byte
// a fourth non-negative unknown); the R whose robust fit has the least mean absolute relative
// residual over the shapes wins, if it beats the fit without a ramp by kMinRampGain and has
// kMinShapesPerSegment shapes each side of R, and pins it down: the ramp's standard error within
// kMaxFigureRelativeError, the bandwidth's too (or no worse than without a ramp). Otherwise
// fitTransfer's result, without a ramp.
// Then a spill past the chosen ramp (target::Ramp::spillBytes: a transfer larger than the core's
// cache runs slower past it), its start searched on spillGrid() with the extra cycles per byte
// past it a fifth non-negative unknown, kept by the same tests against the fit without it
// (its own figure within kMaxSpillRelativeError).
TransferFit fitTransferWithRamp(const std::vector<TransferSample>& samples,
                                double fixedRowOverheadCycles = -1);

// The ramp lengths searched: kMinRampBytes to kMaxRampBytes in steps of sqrt(2).
inline constexpr double kMinRampBytes = 512;
inline constexpr double kMaxRampBytes = 1 << 20;
inline constexpr double kMinRampGain = 0.05;
inline constexpr std::size_t kMinShapesPerSegment = 3;
std::vector<double> rampGrid();
// A spill is kept with a looser bound on its own figure than other figures: without it every
// byte past the core's cache is priced at the cache's rate, 2-3x off for stores of MiBs, where a
// spill known within +-50% is off by less.
inline constexpr double kMaxSpillRelativeError = 0.5;
// The spill starts searched: kMinSpillBytes to kMaxSpillBytes in steps of 2.
inline constexpr double kMinSpillBytes = 128 << 10;
inline constexpr double kMaxSpillBytes = 16 << 20;
std::vector<double> spillGrid();

// A transfer measured while `concurrency` cores each moved the same size on paths sharing one
// resource at the same time.
struct ContendedSample {
    double bytes = 0;
    int concurrency = 1;
    double cycles = 0;
    double rows = 1;
};

struct SharedBandwidthFit {
    double bytesPerCycle = 0;       // of the shared resource
    double rmsRelativeError = 0;
    std::size_t samples = 0;
    // R came out at the top of its range: no slowdown the bytes' term explains, so R is only
    // known to be at least that (its value then says more about the path's rate than the bus).
    bool atCeiling = false;
};

// The shared resource's bandwidth R under the emulator's fair sharing: each of k concurrent
// transfers moves at min(pathBytesPerCycle, R / k), so it takes latency + bytes / that. R is
// searched on a fine logarithmic grid from pathBytesPerCycle to (highest concurrency + 1) x
// pathBytesPerCycle (no contention seen: the top of the range). Samples of concurrency 1 are
// ignored. Each sample's fixed part is latency + rows x rowOverhead (+ a ramp's extra cycles).
SharedBandwidthFit fitSharedBandwidth(const std::vector<ContendedSample>& samples,
                                      double latencyCycles, double pathBytesPerCycle,
                                      double rowOverheadCycles = 0, double rampBytes = 0,
                                      double rampBytesPerCycle = 0);

// The same, judged by slowdowns: each contended sample whose shape (bytes, rows) was measured
// on one core alone too is predicted as that time alone x the emulator's slowdown at R, (fixed +
// bytes / min(path, R / k)) / (fixed + bytes / path), instead of from the path's figures. The
// path's figures are fitted on other programs (the compiled transfers, in cache or not) than the
// one- and two-core copies measured here, so comparing the copies' contended times with them
// blames the copies' own regime on the shared resource: on 2026-11-27 R came out at 23 B/cycle
// while models' concurrent stores of 16 KiB - 1 MiB ran at 27 B/cycle each (docs/ACCURACY.md,
// "Contention judged by slowdowns"). Samples without an alone shape are judged as above.
SharedBandwidthFit fitSharedBandwidth(const std::vector<ContendedSample>& samples,
                                      const std::vector<TransferSample>& alone,
                                      double latencyCycles, double pathBytesPerCycle,
                                      double rowOverheadCycles = 0, double rampBytes = 0,
                                      double rampBytesPerCycle = 0);

// One shape of transfers on a path measured twice: on one core with the others idle, and on
// `concurrency` cores at once, all on that path (calibration's contention programs).
struct SlowdownSample {
    double bytes = 0;
    double rows = 1;
    double aloneCycles = 0;
    double contendedCycles = 0;
    int concurrency = 2;
};

// A path's own contention: the bandwidth R of a resource only that path's transfers use (scope
// chip), so k of them at once each move at min(path rate, R / k), as the emulator shares it.
struct PathContentionFit {
    double bytesPerCycle = 0; // 0: none (the slowdown is not in the bytes term)
    double smallSlowdown = 0; // median contended / alone, sizes up to kContentionSmallBytes
    double largeSlowdown = 0; // the same from kContentionLargeBytes up
    std::size_t samples = 0;  // of the large sizes, those R was fitted on
};

inline constexpr double kContentionSmallBytes = 65536;
inline constexpr double kContentionLargeBytes = 262144;
// The large sizes must slow down this much more than the small ones for the slowdown to be
// taken as shared bandwidth: a slowdown as large on a page as on half a MiB is latency (two
// cores' streams of small copies interfering), which a bandwidth cannot carry.
inline constexpr double kContentionGrowth = 1.25;

// R from the large sizes' slowdowns, read against the emulator's own figures of the path (its
// latency, row overhead and bandwidth): each sample's contended time is its slowdown times the
// emulated time alone; the bytes' part of it gives the rate each of the k flows got, R = k x
// that rate; R is the median over the samples. None when the large sizes slow down less than
// kContentionGrowth x the small ones, or R would not hold any flow below the path's rate.
// A ramp (TransferFit::rampBytes) adds its extra cycles to each sample's fixed part.
PathContentionFit fitPathContention(const std::vector<SlowdownSample>& samples,
                                    double latencyCycles, double rowOverheadCycles,
                                    double pathBytesPerCycle, double rampBytes = 0,
                                    double rampBytesPerCycle = 0);

inline constexpr std::size_t kOpClasses = 9; // ir::OpClass values
// The classes fitted: the op classes, then depthwise and pointwise convolutions (the target's
// throughput_per_cycle.depthwise_conv and pointwise_conv), which run at their own rates.
inline constexpr std::size_t kDepthwiseConvClass = kOpClasses;
inline constexpr std::size_t kPointwiseConvClass = kOpClasses + 1;
// Transcendental elementwise ops (the target's throughput_per_cycle.transcendental).
inline constexpr std::size_t kTranscendentalClass = kOpClasses + 2;
// Layer normalizations (the target's throughput_per_cycle.layer_norm).
inline constexpr std::size_t kLayerNormClass = kOpClasses + 3;
// Resizes and gathers (the target's throughput_per_cycle.resize and gather).
inline constexpr std::size_t kResizeClass = kOpClasses + 4;
inline constexpr std::size_t kGatherClass = kOpClasses + 5;
// Global pools, their work counted in elements read (the target's
// throughput_per_cycle.global_pool).
inline constexpr std::size_t kGlobalPoolClass = kOpClasses + 6;
// Ops copying contiguous runs (the target's throughput_per_cycle.copy, emulator::isCopy).
inline constexpr std::size_t kCopyClass = kOpClasses + 7;
// Grouped convolutions (the target's throughput_per_cycle.grouped_conv, emulator::isGroupedConv).
inline constexpr std::size_t kGroupedConvClass = kOpClasses + 8;
// Sigmoids (the target's throughput_per_cycle.sigmoid, emulator::isSigmoid).
inline constexpr std::size_t kSigmoidClass = kOpClasses + 9;
inline constexpr std::size_t kComputeClasses = kOpClasses + 10;

// One compute instruction measured: its class (ir::OpClass index, kDepthwiseConvClass or
// kPointwiseConvClass), its
// work (MACs for convs and matmul, input elements for reductions and global pools, output
// elements otherwise:
// emulator::computeWork), its
// duration in cycles, and its count of the class's cost unit (kUnitGroups; 0 for others).
struct ComputeSample {
    std::size_t opClass = 0;
    double work = 0;
    double cycles = 0;
    double units = 0;
    double weightBytes = 0; // constant operands read (emulator::weightBytesRead): convs, matmul
    // Of them, bytes beyond the core's private cache (emulator::farWeightBytes).
    double farWeightBytes = 0;
};

// Classes whose computes also pay per unit of something besides their work, one cost per group:
// dense and pointwise convolutions per output element (the target's overhead_cycles.conv_output),
// depthwise ones per output row (depthwise_row), reductions per output element (reduction_output;
// their work is the elements they read), grouped convolutions per element of their input and
// output planes (grouped_conv_element, emulator::groupedConvMacsPerElement), batched matrix
// products per matrix pair
// (matmul_product, emulator::matmulMacsPerProduct), resizes per output row (resize_row; their
// work is the input taps they weigh, emulator::resizeTapsPerOutput), box moves per contiguous
// run (copy_run, emulator::copyRuns).
inline constexpr std::size_t kConvClass = 0;      // ir::OpClass::Conv
inline constexpr std::size_t kMatMulClass = 1;    // ir::OpClass::MatMul
inline constexpr std::size_t kReductionClass = 5; // ir::OpClass::Reduction
struct UnitGroup {
    std::array<std::size_t, 2> classes;
    std::size_t count; // of `classes` used
};
inline constexpr std::array<UnitGroup, 7> kUnitGroups = {{{{kConvClass, kPointwiseConvClass}, 2},
                                                          {{kDepthwiseConvClass, 0}, 1},
                                                          {{kReductionClass, 0}, 1},
                                                          {{kGroupedConvClass, 0}, 1},
                                                          {{kMatMulClass, 0}, 1},
                                                          {{kResizeClass, 0}, 1},
                                                          {{kCopyClass, 0}, 1}}};

// cycles = overhead + work / throughput[class] + units x unitCycles[class], fitted over the median
// time of each (class, work, units) shape (a kernel's tiles and repeats scatter), one overhead
// shared by all classes: the median of
// the classes' own intercepts (each class's relative least-squares line, clamped at 0), bounded
// by the shortest compute measured (no class can be predicted slower than it ran from the
// overhead alone), then each class's throughput by relative least squares with that overhead
// fixed; a class whose time does not grow with its work at all gets kMaxThroughput. The classes
// of a unit group are fitted jointly with the group's unit cost when their units vary apart from
// their work (else, or when the joint solution has a negative figure, the cost is 0).
struct ComputeFit {
    double overheadCycles = 0;
    std::array<double, kComputeClasses> throughputPerCycle{}; // 0 for a class without samples
    std::array<double, kComputeClasses> unitCycles{};         // the class's group's unit cost, else 0
    std::array<double, kComputeClasses> rmsRelativeError{};   // per class
    std::array<std::size_t, kComputeClasses> samples{};    // measurements, before taking medians
    double rmsRelativeErrorAll = 0;
    // Cycles per weight byte read (overhead_cycles.weight_byte), shared by every class whose
    // samples read weights; 0 when their weight bytes per unit of work do not vary (then the
    // cost cannot be told from the throughputs) or the fit finds none.
    double weightByteCycles = 0;
    // Per class, cycles per weight byte read beyond the private cache (the target's
    // overhead_cycles.conv_far_weight_byte, matmul_far_weight_byte), on top of the above; 0 for a
    // class without such samples or whose fit finds none.
    std::array<double, kComputeClasses> farWeightByteCycles{};
};
inline constexpr double kMaxThroughput = 1e9; // the target format's limit

// With weights: cycles = overhead + work / throughput + units x unitCycles + weightBytes x
// weightByteCycles. The overhead and unit costs from the fit above (its class lines take weight
// bytes as a third term where they vary), then the weight-reading classes' throughputs and the
// shared per-byte cost jointly by relative least squares (none when it comes out <= 0), then the
// rest refitted on the times less the weight part. All that on the samples without far weight
// bytes; then each class's far figure from its samples with them, by relative least squares on
// what the figures above leave of their times (a single shape suffices).
ComputeFit fitCompute(const std::vector<ComputeSample>& samples);

// What `fit` predicts for `sample`: overhead + work / throughput + units x unit cost + weight
// bytes x weight-byte cost + far weight bytes x the class's far cost; 0 for a class without a
// throughput.
double predictedCycles(const ComputeFit& fit, const ComputeSample& sample);

// The work factor of a compute on one core while the others are idle (target::Target::
// oneCoreWorkFactor): over `oneCore`, the op-class programs run on one core, their measured
// cycles beyond the fit's overhead summed over what `fit` (fitted with every core busy) predicts
// beyond it; only samples whose predicted work is at least twice the overhead (the overhead's
// noise would decide the rest). 1 without such samples; within [0.5, 2].
double fitOneCoreWorkFactor(const ComputeFit& fit, const std::vector<ComputeSample>& oneCore);

// The median of `values` (0 for none): fixed overheads are robust medians, not means, since a
// preempted thread adds outliers of milliseconds.
double median(std::vector<double> values);

} // namespace strata::calibrate
