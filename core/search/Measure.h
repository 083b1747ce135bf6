#pragma once
// Closing the loop on the host: run the search's best predicted candidates for real (the host
// runtime) and pick the one measured fastest. Each candidate is compiled once, then the runs
// alternate between candidates (round after round), so that a slow spell of a shared machine
// falls on all of them alike; a candidate's figure is the median of its runs.

#include "base/Expected.h"
#include "search/Objective.h"
#include "search/Search.h"

#include <stop_token>
#include <vector>

namespace strata::search {

struct MeasuredCandidate {
    Candidate candidate;
    double measuredNs = 0; // median over the rounds
    std::vector<double> runsNs;
};

// Measures `candidates` (compiled for `target`, which must be the host or host-like) with
// `rounds` runs each, inputs the deterministic sample inputs. Result in candidate order. Errors
// when a candidate does not compile or the runtime refuses it (a target it cannot run), or
// when stopped.
Expected<std::vector<MeasuredCandidate>> measureCandidates(const ir::Graph& graph,
                                                           const target::Target& target,
                                                           const std::vector<Candidate>& candidates,
                                                           int rounds, std::stop_token stop = {});

// What a measured search runs: the result's leaders, then the best start that validated (by
// `objective`), so the measured gain is against what a user had without searching.
std::vector<Candidate> candidatesToMeasure(const SearchResult& result, Objective objective);

// The index of the measured fastest (the first on a tie); candidates must not be empty.
std::size_t fastestMeasured(const std::vector<MeasuredCandidate>& measured);

} // namespace strata::search
