#pragma once
// One revision of a schedule as the views show it: immutable, shared with the worker that
// checked it. The check is that of exactly this schedule on this graph and target.

#include "ir/Graph.h"
#include "schedule/Schedule.h"
#include "schedule/Validate.h"
#include "target/Target.h"

#include <cstdint>
#include <memory>

namespace strata::views::schedule {

struct ScheduleSnapshot {
    std::uint64_t revision = 0;
    std::shared_ptr<const ir::Graph> graph;
    std::shared_ptr<const target::Target> target;
    std::shared_ptr<const strata::schedule::Schedule> schedule;
    std::shared_ptr<const strata::schedule::ScheduleCheck> check;

    bool isComplete() const { return graph && target && schedule && check; }
};

} // namespace strata::views::schedule
