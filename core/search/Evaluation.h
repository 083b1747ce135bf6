#pragma once
// What one candidate schedule costs: compiled, then emulated. The search's only measure of a
// schedule; an Evaluator keeps a compile cache, so blocks an edit did not change are neither
// tiled nor written again.

#include "compiler/CompileCache.h"
#include "schedule/Schedule.h"
#include "target/Target.h"

#include <cstdint>
#include <optional>

namespace strata::search {

struct Evaluation {
    std::int64_t emulatedPs = 0;     // the emulated total
    std::uint64_t dramBytes = 0;     // bytes of every transfer to or from main memory
    std::uint64_t sramPeakBytes = 0; // the largest working memory a block uses on a core

    double emulatedNs() const { return double(emulatedPs) / 1e3; } // as the other commands print it
    bool operator==(const Evaluation&) const = default;
};

// Compiles and emulates schedules of one graph on one target. Not thread-safe (one compile cache
// per evaluator); give each worker its own.
class Evaluator {
  public:
    Evaluator(const ir::Graph& graph, const target::Target& target)
        : m_graph(graph), m_target(target), m_cache(graph, target) {}

    // nullopt when the schedule does not validate or the compiler or emulator refuse it: such a
    // candidate is skipped, never counted.
    std::optional<Evaluation> evaluate(const schedule::Schedule& schedule);

  private:
    const ir::Graph& m_graph;
    const target::Target& m_target;
    compiler::CompileCache m_cache;
};

} // namespace strata::search
