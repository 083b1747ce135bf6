#pragma once
// Schedule search (docs/SEARCH.md): looks for fusion boundaries, mp, tiles and buffering that
// the emulator predicts faster (or lighter on DRAM) than the built-in strategies. Written once
// for the CLI and the app: a plain function taking a stop token and a progress callback.
//
// Two algorithms, both deterministic for a seed and a candidate budget, whatever the thread
// count (candidates are drawn on the calling thread in batches of a fixed size, evaluated in
// parallel, then taken in candidate order):
//  - local:     hill climbing (the best neighbour of a batch when it improves), restarting from
//               each start in turn (then from perturbed starts) when a few batches bring nothing;
//  - evolution: a population of schedules; children by crossover of two parents' block
//               partitions and mutation by edit operations; the best survive.

#include "schedule/Schedule.h"
#include "search/Moves.h"
#include "search/Objective.h"
#include "target/Target.h"

#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

namespace strata::search {

enum class Algorithm { Local, Evolution };
std::string_view algorithmName(Algorithm algorithm); // "local", "evolution"
std::optional<Algorithm> parseAlgorithm(std::string_view name);

struct SearchOptions {
    Algorithm algorithm = Algorithm::Local;
    Objective objective = Objective::Latency;
    std::uint64_t seed = 1;
    double budgetSeconds = 30;       // wall clock; <= 0: none (then set maxEvaluations)
    std::int64_t maxEvaluations = 0; // candidates evaluated at most; 0: no limit
    int threads = 0;                 // 0: one per hardware thread
    bool reuse = true;               // time unchanged stretches once (search/StretchTimes.h)
    SearchSpace space;
    // Where the search starts; empty: the built-in strategies (per-op, rules, fuse-max). Each is
    // evaluated first and reported as a baseline.
    std::vector<schedule::Schedule> starts;
    int batch = 16;      // candidates drawn per step (fixed: results do not depend on threads)
    int population = 16; // evolution
    int keep = 1;        // how many of the best candidates to report (for --measure)
};

struct Baseline {
    std::string strategy; // the start's strategy name
    schedule::Schedule schedule;
    std::optional<Evaluation> evaluation; // nullopt when the start does not validate
};

struct HistoryPoint {
    double seconds = 0;
    std::int64_t evaluated = 0;
    double bestNs = 0; // the best predicted latency so far
};

struct SearchProgress {
    double seconds = 0;
    std::int64_t evaluated = 0;
    std::optional<Evaluation> best;
};

struct SearchResult {
    std::vector<Baseline> baselines;
    std::optional<Candidate> best;     // by the objective (Pareto: the lowest latency)
    std::vector<Candidate> leaders;    // the `keep` best distinct candidates, best first
    std::vector<Candidate> pareto;     // latency against DRAM bytes, by latency
    std::vector<HistoryPoint> history; // one point per improvement of the best
    std::int64_t evaluated = 0;        // candidates compiled and emulated
    std::int64_t invalid = 0;          // candidates that did not validate (skipped)
    std::int64_t leftOut = 0;          // sliced fusions left out (SearchSpace::slicedFusion)
    double seconds = 0;
    bool cancelled = false; // the stop token ended it
};

using ProgressCallback = std::function<void(const SearchProgress&)>;

// Searches schedules of `graph` on `target`. `progress` (optional) is called on this thread after
// every batch; a stop requested through `stop` ends the search within one candidate per worker,
// returning the best found so far. Every candidate reported validates.
SearchResult searchSchedules(const ir::Graph& graph, const target::Target& target,
                             const SearchOptions& options, std::stop_token stop = {},
                             const ProgressCallback& progress = {});

} // namespace strata::search
