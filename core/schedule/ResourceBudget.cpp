#include "schedule/ResourceBudget.h"

#include "schedule/Validate.h"

#include <algorithm>
#include <cstdint>
#include <thread>

namespace strata::schedule {

namespace {

std::string figure(std::int64_t value) {
    // 2097152 -> "2,097,152": limits and figures are read side by side.
    std::string digits = std::to_string(value), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0 && digits[i - 1] != '-')
            out += ',';
        out += digits[i];
    }
    return out;
}

} // namespace

ResourceEstimate estimateResources(const ScheduleAnalysis& analysis, const ir::Graph& graph,
                                   const target::Target& target, const Schedule& schedule) {
    ResourceEstimate e;
    // Saturating sums: a hostile schedule's figures must not wrap around below a limit.
    auto add = [](std::int64_t& sum, std::int64_t value) {
        if (__builtin_add_overflow(sum, value, &sum))
            sum = INT64_MAX;
    };
    for (const BlockAnalysis& block : analysis.blocks)
        if (block.analysed)
            add(e.tiles, block.cost.tiles());
    for (const Block& block : schedule.blocks)
        add(e.coreBlocks, std::max(1, block.mp));
    std::int64_t tileEvents = 0, coreEvents = 0;
    if (__builtin_mul_overflow(e.tiles, kEventsPerTile, &tileEvents))
        tileEvents = INT64_MAX;
    if (__builtin_mul_overflow(e.coreBlocks, kEventsPerCoreBlock, &coreEvents))
        coreEvents = INT64_MAX;
    e.events = tileEvents;
    add(e.events, coreEvents);
    e.cores = target.cores();
    e.coreValueSlots = std::int64_t(e.cores) * std::int64_t(graph.values.size());
    return e;
}

std::vector<Diagnostic> checkResourceBudget(const Schedule& schedule, const ir::Graph& graph,
                                            const target::Target& target, bool forRun) {
    std::vector<Diagnostic> out;
    if (hasErrors(validate(schedule, graph, target)))
        return out; // the check reports those
    std::vector<Diagnostic> ignored;
    const ResourceEstimate e = estimateResources(analyzeSchedule(schedule, graph, target, ignored),
                                                 graph, target, schedule);
    if (e.events > kMaxProgramEvents)
        out.push_back(error("the schedule makes about " + figure(e.events) + " events (" +
                            figure(e.tiles) + " tiles, " + figure(e.coreBlocks) +
                            " cores over its blocks); the limit is " + figure(kMaxProgramEvents) +
                            " (about 1 KiB each while compiling and emulating); choose larger "
                            "tiles or a smaller mp"));
    if (e.coreValueSlots > kMaxCoreValueSlots)
        out.push_back(error(
            "the target's " + figure(e.cores) + " cores times the model's " +
            figure(std::int64_t(graph.values.size())) + " values make " + figure(e.coreValueSlots) +
            " slots for the compiler's race check; the limit is " + figure(kMaxCoreValueSlots)));
    if (forRun) {
        const int cpus = int(std::max(1u, std::thread::hardware_concurrency()));
        if (e.cores > cpus * kMaxRunThreadsPerCpu)
            out.push_back(
                error("running starts one thread per core: the target's " + figure(e.cores) +
                      " cores are more than " + std::to_string(kMaxRunThreadsPerCpu) +
                      " per hardware thread of this computer (" + std::to_string(cpus) + ")"));
    }
    return out;
}

} // namespace strata::schedule
