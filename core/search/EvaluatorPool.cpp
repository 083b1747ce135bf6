#include "search/EvaluatorPool.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace strata::search {

EvaluatorPool::EvaluatorPool(const ir::Graph& graph, const target::Target& target, int threads,
                             bool reuse) {
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    for (int i = 0; i < threads; ++i)
        m_evaluators.push_back(std::make_unique<Evaluator>(graph, target, reuse));
}

std::vector<Outcome> EvaluatorPool::evaluate(std::span<const schedule::Schedule> candidates,
                                             std::stop_token stop, Admit admit) {
    std::vector<Outcome> outcomes(candidates.size());
    std::atomic<std::size_t> next{0};
    auto work = [&](Evaluator& evaluator) {
        for (;;) {
            if (stop.stop_requested())
                return;
            const std::size_t i = next.fetch_add(1);
            if (i >= candidates.size())
                return;
            if (auto e = evaluator.evaluate(candidates[i], admit))
                outcomes[i] = {Outcome::Status::Evaluated, *e};
            else
                outcomes[i].status =
                    evaluator.leftOut() ? Outcome::Status::LeftOut : Outcome::Status::Invalid;
        }
    };
    const std::size_t helpers = std::min(m_evaluators.size(), candidates.size());
    if (helpers <= 1) {
        work(*m_evaluators.front());
        return outcomes;
    }
    {
        // A batch takes milliseconds or more per candidate; starting threads per batch costs
        // microseconds and keeps the pool free of queues and shutdown logic.
        std::vector<std::jthread> workers;
        for (std::size_t w = 1; w < helpers; ++w)
            workers.emplace_back([&, w] { work(*m_evaluators[w]); });
        work(*m_evaluators.front());
    }
    return outcomes;
}

} // namespace strata::search
