#include "search/Objective.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace strata::search {

std::string_view objectiveName(Objective objective) {
    switch (objective) {
    case Objective::Latency:
        return "latency";
    case Objective::Dram:
        return "dram";
    case Objective::Pareto:
        return "pareto";
    }
    return "latency";
}

std::optional<Objective> parseObjective(std::string_view name) {
    for (Objective o : {Objective::Latency, Objective::Dram, Objective::Pareto})
        if (objectiveName(o) == name)
            return o;
    return std::nullopt;
}

bool dominates(const Evaluation& a, const Evaluation& b) {
    return a.emulatedPs <= b.emulatedPs && a.dramBytes <= b.dramBytes &&
           (a.emulatedPs < b.emulatedPs || a.dramBytes < b.dramBytes);
}

bool better(Objective objective, const Evaluation& a, const Evaluation& b) {
    if (objective == Objective::Dram)
        return std::tie(a.dramBytes, a.emulatedPs, a.sramPeakBytes) <
               std::tie(b.dramBytes, b.emulatedPs, b.sramPeakBytes);
    return std::tie(a.emulatedPs, a.dramBytes, a.sramPeakBytes) <
           std::tie(b.emulatedPs, b.dramBytes, b.sramPeakBytes);
}

double scalarized(const Evaluation& e, double latencyWeight) {
    return latencyWeight * std::log(double(e.emulatedPs) + 1) +
           (1 - latencyWeight) * std::log(double(e.dramBytes) + 1);
}

bool ParetoFront::offer(const Candidate& c) {
    for (const Candidate& p : m_points)
        if (dominates(p.evaluation, c.evaluation) ||
            (p.evaluation.emulatedPs == c.evaluation.emulatedPs &&
             p.evaluation.dramBytes == c.evaluation.dramBytes))
            return false;
    std::erase_if(m_points,
                  [&](const Candidate& p) { return dominates(c.evaluation, p.evaluation); });
    auto at = std::upper_bound(m_points.begin(), m_points.end(), c,
                               [](const Candidate& x, const Candidate& y) {
                                   return x.evaluation.emulatedPs < y.evaluation.emulatedPs;
                               });
    m_points.insert(at, c);
    return true;
}

} // namespace strata::search
