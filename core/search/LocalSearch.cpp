#include "search/LocalSearch.h"

#include "search/SearchRun.h"

#include <algorithm>
#include <array>

namespace strata::search {
namespace {

constexpr int kPatience = 3;        // batches without a move before a restart
constexpr int kMaxPerturbation = 4; // random edits applied to a start for a perturbed restart
constexpr std::array<double, 5> kParetoWeights = {1.0, 0.5, 0.0, 0.75,
                                                  0.25}; // latency weight per restart

// Strictly better for this restart's climb.
bool improves(const SearchRun& run, const Evaluation& a, const Evaluation& b, double weight) {
    if (run.options().objective != Objective::Pareto)
        return better(run.options().objective, a, b);
    const double sa = scalarized(a, weight), sb = scalarized(b, weight);
    return sa != sb ? sa < sb : better(Objective::Latency, a, b);
}

} // namespace

void runLocalSearch(SearchRun& run) {
    std::vector<Candidate> starts = run.evaluateStarts();
    if (starts.empty())
        return;
    // The most promising start climbs first: under a short budget it may be the only one.
    std::stable_sort(starts.begin(), starts.end(), [&](const Candidate& a, const Candidate& b) {
        return improves(run, a.evaluation, b.evaluation, kParetoWeights.front());
    });
    for (std::size_t restart = 0; !run.done(); ++restart) {
        const double weight = kParetoWeights[restart % kParetoWeights.size()];
        Candidate current = starts[restart % starts.size()];
        if (restart >= starts.size()) {
            const int edits = 1 + static_cast<int>(run.random().below(kMaxPerturbation));
            schedule::Schedule perturbed = current.schedule;
            for (int e = 0; e < edits; ++e)
                if (auto s = run.mutated(perturbed))
                    perturbed = std::move(*s);
            if (auto evaluation = run.evaluate({perturbed}).front())
                current = {std::move(perturbed), *evaluation};
        }
        for (int stale = 0; stale < kPatience && !run.done();) {
            std::vector<schedule::Schedule> neighbours;
            for (int i = 0; i < run.options().batch; ++i)
                if (auto s = run.mutated(current.schedule))
                    neighbours.push_back(std::move(*s));
            const auto evaluations = run.evaluate(neighbours);
            std::optional<std::size_t> bestIndex;
            for (std::size_t i = 0; i < neighbours.size(); ++i) {
                if (!evaluations[i])
                    continue;
                const Evaluation& reference =
                    bestIndex ? *evaluations[*bestIndex] : current.evaluation;
                if (improves(run, *evaluations[i], reference, weight))
                    bestIndex = i;
            }
            if (bestIndex) {
                current = {std::move(neighbours[*bestIndex]), *evaluations[*bestIndex]};
                stale = 0;
            } else {
                ++stale;
            }
        }
    }
}

} // namespace strata::search
