#pragma once
// `accuracy --events FILE`: every matched compute and transfer of every schedule as a CSV row,
// emulated beside measured, with what a transfer cost model may depend on (docs/ACCURACY.md):
// bytes, contiguous rows and their length, main-memory cache lines touched, which core last
// wrote the bytes read, and how much of it overlapped the other cores' transfers; for a compute,
// what a compute cost model may depend on: its op, MACs, bytes of activations, weights and output,
// its output tile and its channel layout.

#include "compiler/Program.h"
#include "ir/Graph.h"
#include "target/Target.h"
#include "trace/AccuracyReport.h"
#include "trace/Trace.h"

#include <ostream>
#include <string>

namespace strata::cli {

struct EventsContext {
    std::string model; // the model's name
    std::string strategy;
    int mp = 1;
    const ir::Graph* graph = nullptr; // the compiled graph (a compute's features need it)
};

void writeEventsHeader(std::ostream& out);

// One row per event of `report` (its emulated trace `emulated`, of `program` on `target`).
void writeEventsCsv(std::ostream& out, const EventsContext& context,
                    const compiler::Program& program, const target::Target& target,
                    const trace::Trace& emulated, const trace::AccuracyReport& report,
                    const trace::EventLabels& labels);

} // namespace strata::cli
