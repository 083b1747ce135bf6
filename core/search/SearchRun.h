#pragma once
// The bookkeeping both algorithms share (internal to core/search): the evaluator pool, the
// random numbers, the candidates seen (by a hash of their partition and knobs, so that none is
// evaluated twice), the budget, and the result being built (best, leaders, Pareto front,
// history). The algorithms only draw candidates and decide what to keep.

#include "search/EvaluatorPool.h"
#include "search/Search.h"

#include <chrono>
#include <unordered_map>

namespace strata::search {

class SearchRun {
  public:
    SearchRun(const ir::Graph& graph, const target::Target& target, const SearchOptions& options,
              std::stop_token stop, const ProgressCallback& progress);

    const ir::Graph& graph() const { return m_graph; }
    const target::Target& target() const { return m_target; }
    const SearchOptions& options() const { return m_options; }
    Random& random() { return m_random; }

    // The starts (options.starts, or the built-in strategies), evaluated and recorded as the
    // baselines; the valid ones are returned, in order.
    std::vector<Candidate> evaluateStarts();

    // Evaluates the candidates not seen before, in parallel, and records them in candidate
    // order. result[i]: candidates[i]'s evaluation (fresh or remembered), or nullopt when it is
    // invalid or was not evaluated (budget or cancel).
    std::vector<std::optional<Evaluation>>
    evaluate(const std::vector<schedule::Schedule>& candidates);

    // One accepted random edit of `from` (up to a few draws), or nullopt.
    std::optional<schedule::Schedule> mutated(const schedule::Schedule& from);

    // Stop requested, budget spent, or nothing new found for a long time (a small space seen
    // whole).
    bool done() const;

    static std::uint64_t hashOf(const schedule::Schedule& schedule);

    SearchResult finish();

  private:
    // evaluate() with `admit`: the starts are taken as they are, drawn candidates as the space
    // says (SearchSpace::slicedFusion).
    std::vector<std::optional<Evaluation>>
    evaluate(const std::vector<schedule::Schedule>& candidates, Admit admit);
    void record(const schedule::Schedule& schedule, const Evaluation& evaluation);
    double elapsed() const;

    const ir::Graph& m_graph;
    const target::Target& m_target;
    SearchOptions m_options;
    std::stop_token m_stop;
    const ProgressCallback& m_progress;
    EvaluatorPool m_pool;
    Random m_random;
    schedule::AnalysisCache m_analysis; // for the moves (this thread only)
    std::unordered_map<std::uint64_t, std::optional<Evaluation>> m_seen;
    int m_batchesWithoutNews = 0;
    std::chrono::steady_clock::time_point m_start;
    ParetoFront m_front;
    SearchResult m_result;
};

} // namespace strata::search
