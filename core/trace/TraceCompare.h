#pragma once
// Predicted against measured: two timelines of the same program (an emulated one and a measured
// one, or any two) matched event by event through the instructions' ids, and block by block
// through their summaries. Errors are relative to the measured figure:
// (emulated - measured) / measured, so +0.2 means the prediction is 20% too slow.

#include "base/Expected.h"
#include "trace/Trace.h"

#include <cstdint>
#include <vector>

namespace strata::trace {

struct EventComparison {
    std::uint32_t id = 0;
    EventKind kind = EventKind::Compute;
    std::uint32_t core = 0;
    std::int32_t block = -1;
    std::int64_t emulatedPs = 0;    // durations
    std::int64_t measuredPs = 0;
    double error = 0;               // relative; 0 when the measured duration is 0
};

struct BlockComparison {
    int block = 0;
    std::int64_t emulatedPs = 0;    // the block's span in each trace (TraceSummary's time)
    std::int64_t measuredPs = 0;
    double error = 0;
};

struct TraceComparison {
    std::size_t matched = 0;        // ids present in both traces
    std::size_t emulatedOnly = 0;
    std::size_t measuredOnly = 0;
    std::int64_t totalEmulatedPs = 0;
    std::int64_t totalMeasuredPs = 0;
    double totalError = 0;
    // Median of |error| over matched transfers with a measured duration above 0 (0 without any),
    // and the same per kind (indexed by EventKind) for the text report.
    double transferMedianAbsError = 0;
    double medianAbsError[4] = {0, 0, 0, 0};
    std::size_t compared[4] = {0, 0, 0, 0}; // events behind each median
    std::vector<EventComparison> events;    // matched events, in the emulated trace's order
    std::vector<BlockComparison> blocks;    // blocks present in both, by block id
    std::vector<Diagnostic> warnings;       // a target or source mismatch, unmatched events
};

struct CompareOptions {
    // Compare traces of different models (their model hashes differ) anyway; a warning then.
    bool allowModelMismatch = false;
};

// Errors: the traces are of different models (both carry a model hash and they differ) unless
// allowed, no id in common, or a matched id with a different kind or core (the ids then name
// different instructions). Different target names are a warning with the number matched: a
// calibrated description of a machine may carry another name than the one measured on.
Expected<TraceComparison> compareTraces(const Trace& emulated, const Trace& measured, const CompareOptions& options = {});

} // namespace strata::trace
