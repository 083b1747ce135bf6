#pragma once
// Evaluates a batch of candidates on all cores: one worker thread per evaluator, each with its
// own compile cache. Results come back in candidate order, so what the search does with them is
// the same whatever the thread count. Workers check the stop token before each candidate: a
// cancel stops every worker within the candidate it is evaluating.

#include "search/Evaluation.h"

#include <memory>
#include <optional>
#include <span>
#include <stop_token>
#include <vector>

namespace strata::search {

struct Outcome {
    enum class Status { NotRun, Invalid, LeftOut, Evaluated } status = Status::NotRun;
    Evaluation evaluation; // when Evaluated
};

class EvaluatorPool {
  public:
    // `threads` 0: one per hardware thread. `reuse`: Evaluator's.
    EvaluatorPool(const ir::Graph& graph, const target::Target& target, int threads,
                  bool reuse = true);
    int threads() const { return static_cast<int>(m_evaluators.size()); }

    // outcomes[i] is candidates[i]'s; NotRun for those not started when `stop` was requested.
    std::vector<Outcome> evaluate(std::span<const schedule::Schedule> candidates,
                                  std::stop_token stop, Admit admit = Admit::Any);

  private:
    std::vector<std::unique_ptr<Evaluator>> m_evaluators;
};

} // namespace strata::search
