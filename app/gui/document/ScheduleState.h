#pragma once
// What one undo step of the schedule document restores: the target (with the analysis cache
// made for it and the open graph), the strategy that made the starting schedule, and the
// schedule. All immutable and shared between the states that did not change them.

#include "schedule/Analysis.h"
#include "schedule/Schedule.h"
#include "schedule/Strategies.h"
#include "target/Target.h"

#include <QString>
#include <memory>

namespace strata::gui {

struct TargetChoice {
    QString key; // a preset name or a target file's path, as the user chose it
    std::shared_ptr<const target::Target> target;
    // Tiling results for (the document's graph, target). Not thread-safe: used by one thread at
    // a time (ScheduleDocument queues edits while a background job may use it).
    std::shared_ptr<schedule::AnalysisCache> cache;
};

struct ScheduleState {
    std::shared_ptr<const TargetChoice> target;
    schedule::Strategy strategy = schedule::Strategy::FuseMax;
    std::shared_ptr<const schedule::Schedule> schedule; // null before the first schedule
};

} // namespace strata::gui
