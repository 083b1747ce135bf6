#pragma once
// What the search minimises: the predicted latency (default), the DRAM traffic, or both as a
// Pareto front (latency against DRAM bytes; SRAM peak reported alongside).

#include "schedule/Schedule.h"
#include "search/Evaluation.h"

#include <optional>
#include <string_view>
#include <vector>

namespace strata::search {

enum class Objective { Latency, Dram, Pareto };

std::string_view objectiveName(Objective objective); // "latency", "dram", "pareto"
std::optional<Objective> parseObjective(std::string_view name);

struct Candidate {
    schedule::Schedule schedule;
    Evaluation evaluation;
};

// `a` at least as good as `b` in latency and DRAM bytes and better in one.
bool dominates(const Evaluation& a, const Evaluation& b);

// Lexicographic: latency then DRAM bytes, or DRAM bytes then latency. For the Pareto objective
// the single-number views use latency first.
bool better(Objective objective, const Evaluation& a, const Evaluation& b);

// A weighted view of both objectives (log latency against log DRAM bytes, `latencyWeight` in
// [0, 1]) that the local search's restarts use to walk along the Pareto front.
double scalarized(const Evaluation& e, double latencyWeight);

// The non-dominated candidates seen so far, by increasing latency. Ties (same latency and DRAM
// bytes) keep the first candidate offered, so the front is deterministic in offering order.
class ParetoFront {
  public:
    // True when `c` joined the front (dropping the candidates it dominates).
    bool offer(const Candidate& c);
    const std::vector<Candidate>& points() const { return m_points; }

  private:
    std::vector<Candidate> m_points;
};

} // namespace strata::search
