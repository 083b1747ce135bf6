#pragma once
// What one candidate schedule costs: compiled, then emulated. The search's only measure of a
// schedule; an Evaluator keeps a compile cache, so blocks an edit did not change are neither
// tiled nor written again.

#include "compiler/CompileCache.h"
#include "schedule/Schedule.h"
#include "search/StretchTimes.h"
#include "target/Target.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace strata::search {

struct Evaluation {
    std::int64_t emulatedPs = 0;     // the emulated total
    std::uint64_t dramBytes = 0;     // bytes of every transfer to or from main memory
    std::uint64_t sramPeakBytes = 0; // the largest working memory a block uses on a core

    double emulatedNs() const { return double(emulatedPs) / 1e3; } // as the other commands print it
    bool operator==(const Evaluation&) const = default;
};

// Which candidates evaluate() takes in: every valid one, or not those whose fusion fits only in
// input-channel slices (search/SlicedFusion.h; the search's default for what it draws).
enum class Admit { Any, WithoutSlicedFusion };

// Compiles and emulates schedules of one graph on one target. Not thread-safe (one compile cache
// per evaluator); give each worker its own.
//
// With `reuse` (search/StretchTimes.h) the
// program is not spliced whole: the compiler's passes run up to the blocks' chunks, only the
// stretches between barriers that hold a changed block are emulated, and the others' times are
// reused. The totals equal the whole program's emulation; the compiler's verify pass (its check
// of its own output) is not run on that path.
class Evaluator {
  public:
    Evaluator(const ir::Graph& graph, const target::Target& target, bool reuse = true);

    // nullopt when the schedule does not validate, `admit` leaves it out, or the compiler or
    // emulator refuse it: such a candidate is skipped, never counted.
    std::optional<Evaluation> evaluate(const schedule::Schedule& schedule,
                                       Admit admit = Admit::Any);

    // Whether the last evaluate() left its candidate out for `admit` (it validates).
    bool leftOut() const { return m_leftOut; }
    bool reusing() const { return m_stretches != nullptr; }
    const StretchTimes* stretches() const { return m_stretches.get(); }

  private:
    std::optional<Evaluation> compileAndEmulate(const schedule::Schedule& schedule, Admit admit);
    // nullopt when the schedule is invalid or not admitted; an Evaluation without a time
    // (`emulatedPs` < 0) when the stretches cannot be timed apart (then emulate the whole program).
    std::optional<Evaluation> byStretches(const schedule::Schedule& schedule, Admit admit);

    const ir::Graph& m_graph;
    const target::Target& m_target;
    compiler::CompileCache m_cache;
    std::unique_ptr<StretchTimes> m_stretches; // with reuse
    bool m_leftOut = false;
    bool m_refused = false;                    // an op no kernel runs: every schedule is refused
};

} // namespace strata::search
