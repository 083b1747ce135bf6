#include "search/Evolution.h"

#include "search/SearchRun.h"

#include <algorithm>
#include <unordered_set>

namespace strata::search {
namespace {

constexpr double kCrossoverRate = 0.5;
constexpr int kSeedingRounds = 8; // batches of mutants tried to fill the first population

struct Member {
    Candidate candidate;
    std::uint64_t hash = 0;
};

// Sorts best first and keeps the `size` best distinct members. Stable, so ties keep their order.
void select(std::vector<Member>& members, Objective objective, std::size_t size) {
    std::unordered_set<std::uint64_t> seen;
    std::erase_if(members, [&](const Member& m) { return !seen.insert(m.hash).second; });
    if (objective == Objective::Pareto) {
        std::vector<std::pair<int, std::size_t>> rank; // (dominated by, index)
        for (std::size_t i = 0; i < members.size(); ++i) {
            int dominatedBy = 0;
            for (const Member& other : members)
                dominatedBy +=
                    dominates(other.candidate.evaluation, members[i].candidate.evaluation) ? 1 : 0;
            rank.emplace_back(dominatedBy, i);
        }
        std::stable_sort(rank.begin(), rank.end(), [&](const auto& a, const auto& b) {
            if (a.first != b.first)
                return a.first < b.first;
            return better(Objective::Latency, members[a.second].candidate.evaluation,
                          members[b.second].candidate.evaluation);
        });
        std::vector<Member> sorted;
        for (const auto& r : rank)
            sorted.push_back(std::move(members[r.second]));
        members = std::move(sorted);
    } else {
        std::stable_sort(members.begin(), members.end(), [&](const Member& a, const Member& b) {
            return better(objective, a.candidate.evaluation, b.candidate.evaluation);
        });
    }
    if (members.size() > size)
        members.resize(size);
}

// Binary tournament on a population sorted best first: the better of two random members.
const Member& tournament(const std::vector<Member>& population, Random& random) {
    const std::size_t a = random.below(population.size()), b = random.below(population.size());
    return population[std::min(a, b)];
}

void addValid(std::vector<Member>& to, std::vector<schedule::Schedule>& schedules,
              const std::vector<std::optional<Evaluation>>& evaluations) {
    for (std::size_t i = 0; i < schedules.size(); ++i)
        if (evaluations[i]) {
            const std::uint64_t hash = SearchRun::hashOf(schedules[i]);
            to.push_back({{std::move(schedules[i]), *evaluations[i]}, hash});
        }
}

} // namespace

void runEvolution(SearchRun& run) {
    const auto size = static_cast<std::size_t>(std::max(2, run.options().population));
    const Objective objective = run.options().objective;
    std::vector<Member> population;
    for (const Candidate& c : run.evaluateStarts())
        population.push_back({c, SearchRun::hashOf(c.schedule)});
    if (population.empty())
        return;
    for (int round = 0; round < kSeedingRounds && population.size() < size && !run.done();
         ++round) {
        std::vector<schedule::Schedule> mutants;
        for (int i = 0; i < run.options().batch; ++i) {
            const Member& parent = population[run.random().below(population.size())];
            if (auto s = run.mutated(parent.candidate.schedule))
                mutants.push_back(std::move(*s));
        }
        const auto evaluations = run.evaluate(mutants);
        addValid(population, mutants, evaluations);
        std::vector<Member> kept = population;
        select(kept, objective, size);
        population = std::move(kept);
    }
    select(population, objective, size);

    while (!run.done()) {
        std::vector<schedule::Schedule> children;
        for (int i = 0; i < run.options().batch; ++i) {
            const Member& first = tournament(population, run.random());
            const Member& second = tournament(population, run.random());
            std::optional<schedule::Schedule> child;
            if (run.random().chance(kCrossoverRate))
                child = crossover(first.candidate.schedule, second.candidate.schedule, run.graph(),
                                  run.random());
            schedule::Schedule base = child ? std::move(*child) : first.candidate.schedule;
            const int edits = 1 + static_cast<int>(run.random().below(2));
            bool changed = child.has_value();
            for (int e = 0; e < edits; ++e)
                if (auto s = run.mutated(base)) {
                    base = std::move(*s);
                    changed = true;
                }
            if (changed) {
                base.strategy = "search";
                children.push_back(std::move(base));
            }
        }
        const auto evaluations = run.evaluate(children);
        addValid(population, children, evaluations);
        select(population, objective, size);
    }
}

} // namespace strata::search
