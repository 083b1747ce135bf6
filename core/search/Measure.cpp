#include "search/Measure.h"

#include "flow/Flow.h"
#include "reference/Evaluator.h"

#include <algorithm>

namespace strata::search {
namespace {

constexpr std::uint64_t kInputSeed = 7; // as `strata-cli run`

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[(values.size() - 1) / 2];
}

} // namespace

Expected<std::vector<MeasuredCandidate>> measureCandidates(const ir::Graph& graph,
                                                           const target::Target& target,
                                                           const std::vector<Candidate>& candidates,
                                                           int rounds, std::stop_token stop) {
    if (rounds < 1)
        return error("measure: at least one run per candidate is needed");
    // Compiled and checked once each (a stop request ends a compile between its passes); the
    // runs below do not check them again.
    flow::Options compileOptions;
    compileOptions.proceed = [&](flow::Stage) { return !stop.stop_requested(); };
    std::vector<flow::Result> programs;
    for (const Candidate& c : candidates) {
        flow::Result compiled = flow::compile({graph, target, c.schedule}, compileOptions);
        if (compiled.cancelled)
            return error("measure: cancelled");
        if (!compiled.ok())
            return std::move(compiled.diagnostics);
        programs.push_back(std::move(compiled));
    }
    const std::vector<reference::Tensor> inputs = reference::sampleInputs(graph, kInputSeed);
    runtime::RunOptions options;
    options.timestamps = false; // the total is all that is compared
    std::vector<MeasuredCandidate> measured;
    for (const Candidate& c : candidates)
        measured.push_back({c, 0, {}});
    for (int round = 0; round < rounds; ++round)
        for (std::size_t i = 0; i < programs.size(); ++i) {
            if (stop.stop_requested())
                return error("measure: cancelled");
            auto result =
                flow::run(programs[i], {graph, target, candidates[i].schedule}, inputs, options);
            if (!result)
                return result.takeDiagnostics();
            measured[i].runsNs.push_back(result->totalsNs.front());
        }
    for (MeasuredCandidate& m : measured)
        if (!m.runsNs.empty())
            m.measuredNs = median(m.runsNs);
    return measured;
}

std::size_t fastestMeasured(const std::vector<MeasuredCandidate>& measured) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < measured.size(); ++i)
        if (measured[i].measuredNs < measured[best].measuredNs)
            best = i;
    return best;
}

std::vector<Candidate> candidatesToMeasure(const SearchResult& result, Objective objective) {
    std::vector<Candidate> out = result.leaders;
    std::optional<Candidate> start;
    for (const Baseline& b : result.baselines)
        if (b.evaluation && (!start || better(objective, *b.evaluation, start->evaluation)))
            start = Candidate{b.schedule, *b.evaluation};
    if (start)
        out.push_back(std::move(*start));
    return out;
}

} // namespace strata::search
