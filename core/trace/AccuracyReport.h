#pragma once
// How far a prediction is from what the machine did (docs/ACCURACY.md): one emulated trace against
// several measured repeats of the same program. Measured figures are medians over the repeats,
// event by event (a preempted repeat does not pick which events count), and the repeats' spread
// is reported beside the error so a user can tell the machine's noise from the model's error.
// Errors are relative to the measured figure, (emulated - measured) / measured, as in
// TraceCompare.h. Knows nothing of programs or targets: groups of events come as labels.

#include "base/Expected.h"
#include "trace/Trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace strata::trace {

// Time spent in each kind of event, summed over events (and cores).
struct KindTimes {
    double computePs = 0;
    double transferPs = 0;
    double waitPs = 0;
    double barrierPs = 0;
};

struct BlockAccuracy {
    int block = 0;
    KindTimes emulated;              // sums of event durations
    KindTimes measured;              // sums of the per-event medians
    std::int64_t emulatedSpanPs = 0; // TraceSummary's block time
    double measuredSpanPs = 0;       // its median over the repeats
    double error = 0;                // of the spans
};

// The events of one label: a compute class ("conv", "resize") or a transfer kind ("load/weight").
struct GroupAccuracy {
    std::string label;
    std::size_t events = 0;    // matched events with a measured duration above 0
    double medianAbsError = 0; // over its events
    double p90AbsError = 0;
    double emulatedPs = 0; // summed durations
    double measuredPs = 0;
    double error = 0; // of the sums: how far the group's time is off in all
};

// One matched event: its emulated duration beside the median of its measured ones (the pairs the
// errors are made of; `accuracy --events` writes them for offline study of the cost model).
struct EventAccuracy {
    std::size_t event = 0; // index into the emulated trace's events
    double emulatedPs = 0;
    double measuredPs = 0; // median over the repeats that have it
};

struct AccuracyReport {
    std::size_t repeats = 0;
    std::int64_t emulatedTotalPs = 0;
    double measuredTotalPs = 0; // median of the repeats' totals
    double totalError = 0;
    double totalSpread = 0;               // interquartile range / median of the repeats' totals
    std::vector<double> measuredTotalsPs; // one per repeat, in order
    // Share of the total the busiest core's stream spent between events: 1 - (its events'
    // durations summed) / total; measured with per-event medians and the median total. A measured
    // share far above the emulated one is time the program's threads did not run (other work on
    // the machine, preemption), not time any instruction took.
    double emulatedIdleShare = 0;
    double measuredIdleShare = 0;
    // Per core that ran computes or transfers, in core order: the measured time of its computes
    // and transfers (per-event medians) over the emulated time of the same events. Cores that
    // share a schedule's blocks evenly run at one pace whatever the model's error; a core slowed
    // by other work on its CPU (another virtual machine, for minutes) runs slower (corePaceSpread).
    std::vector<double> corePace;
    std::size_t transfers = 0; // transfers compared
    double transferMedianAbsError = 0;
    double transferP90AbsError = 0;
    std::size_t computes = 0;
    double computeMedianAbsError = 0;
    std::vector<GroupAccuracy> computeGroups;  // by label, sorted by measured time, largest first
    std::vector<GroupAccuracy> transferGroups; // likewise
    std::vector<BlockAccuracy> blocks;         // by block id
    std::vector<EventAccuracy> events;         // computes and transfers, in trace order
    std::vector<Diagnostic> warnings;
};

// How much slower, relative to its prediction, the slowest core ran than the fastest:
// max(pace) / min(pace) - 1 over AccuracyReport::corePace; 0 with fewer than two cores.
double corePaceSpread(const std::vector<double>& pace);

// Above this spread of a model's multi-core schedules (their median), its cores did not run at
// one pace: in quiet rounds of the 31-model zoo the median stayed within 0.05, in stretches where
// another tenant slowed one core it was 0.09-0.22 (docs/ACCURACY.md, "One core slower than the
// other"; the threshold was chosen on those rounds).
inline constexpr double kUnevenCorePace = 0.07;

// Labels per instruction id (an event's id indexes it); an id beyond it or with an empty label
// falls back to the event's path name for a transfer and "compute" for a compute.
using EventLabels = std::vector<std::string>;

// Errors: no repeat; any repeat that compareTraces refuses against `emulated` (another program).
// Barriers (block -1) count in the block of the event before them on their core.
Expected<AccuracyReport> accuracyReport(const Trace& emulated,
                                        const std::vector<Trace>& measuredRepeats,
                                        const EventLabels& labels = {});

// Per event of `reference`: the median of the durations of the events with its id in `repeats`
// (0 when none has it). What accuracyReport compares with; calibration fits these too, so a
// preempted repeat does not pick which events count.
std::vector<double> medianDurationsPs(const Trace& reference, const std::vector<Trace>& repeats);

// The q-quantile (0..1) of `values` by linear interpolation between order statistics; 0 for none.
double quantile(std::vector<double> values, double q);

// Ranks 1..n, ties given the average of the ranks they span.
std::vector<double> averageRanks(const std::vector<double>& values);

// Spearman's rank correlation with ties (Pearson's correlation of average ranks). NaN when the
// sizes differ, there are fewer than two values, or either side has every value tied.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

} // namespace strata::trace
