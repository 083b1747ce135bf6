#pragma once
// One run of one schedule revision on this computer: the program the host runtime ran, the
// emulator's prediction of it and the measured timeline, paired event by event (same ids).
// Immutable once made; shared between the views as std::shared_ptr<const MeasuredRun>.

#include "runs/EmulationRun.h"
#include "trace/BlockError.h"
#include "trace/Trace.h"

#include <memory>
#include <optional>
#include <vector>

namespace strata::gui {

struct MeasuredRun {
    std::shared_ptr<const EmulationRun> emulation; // the program run, and its prediction
    trace::Trace measured;        // the median repeat's timeline (Source::Measured)
    std::vector<double> totalsNs; // every repeat
    // Per block, predicted against measured (flow::measure's, made off the UI thread); empty for
    // a run restored from a project (HeatOverlay computes them then).
    std::vector<trace::BlockError> blockErrors;
    // The share of the CPUs other work took while it ran (calibrate/OtherLoad.h); unknown off
    // Linux and for a run restored from a project.
    std::optional<double> otherLoad;
};

} // namespace strata::gui
