#pragma once
// One state of the schedule document, immutable and shared: the model graph, the target chosen
// (with the analysis cache made for it), the strategy that made the starting schedule, the
// schedule, and the revision's number. The document hands out its current one, undo steps hold
// two, jobs take one (turned into core's flow::Revision at the job boundary only) and every tab
// and controller keeps the one what it shows was made from, so "is this current?" is one rule
// (isCurrent below) everywhere.

#include "flow/Flow.h"
#include "ir/Graph.h"
#include "schedule/Analysis.h"
#include "schedule/Schedule.h"
#include "schedule/Strategies.h"
#include "target/Target.h"

#include <QString>
#include <cstdint>
#include <memory>

namespace strata::gui {

struct TargetChoice {
    QString key; // a preset name or a target file's path, as the user chose it
    std::shared_ptr<const target::Target> target;
    // Tiling results for (the document's graph, target). Not thread-safe: used by one thread at
    // a time (ScheduleDocument queues edits while a background job may use it).
    std::shared_ptr<schedule::AnalysisCache> cache;
};

struct Revision {
    // Unique per revision the document makes, from 1; 0 for one that is no document's (a
    // search candidate's), which is current nowhere.
    std::uint64_t number = 0;
    std::shared_ptr<const ir::Graph> graph;
    std::shared_ptr<const TargetChoice> target;
    schedule::Strategy strategy = schedule::Strategy::FuseMax;
    std::shared_ptr<const schedule::Schedule> schedule; // null before the first schedule

    // Graph, target and schedule are all there: something to compile.
    bool isComplete() const { return graph && target && target->target && schedule; }
    std::shared_ptr<const target::Target> machine() const {
        return target ? target->target : nullptr;
    }
    // The target's preset name or file path, as the user chose it (empty: none).
    QString targetName() const { return target ? target->key : QString(); }
    // For core's flow; needs isComplete().
    flow::Revision forFlow() const { return {*graph, *target->target, *schedule}; }
};

using RevisionPtr = std::shared_ptr<const Revision>;

// The one rule every tab and controller uses: what was made from `shown` is current when the
// document's `current` revision is that same revision (the same object, or the same number:
// an undo back to a revision hands that revision back). Null or unnumbered: never current.
bool isCurrent(const RevisionPtr& shown, const RevisionPtr& current);

} // namespace strata::gui
