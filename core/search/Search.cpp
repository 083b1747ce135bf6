#include "search/Search.h"

#include "search/Evolution.h"
#include "search/LocalSearch.h"
#include "search/SearchRun.h"

namespace strata::search {

std::string_view algorithmName(Algorithm algorithm) {
    return algorithm == Algorithm::Evolution ? "evolution" : "local";
}

std::optional<Algorithm> parseAlgorithm(std::string_view name) {
    for (Algorithm a : {Algorithm::Local, Algorithm::Evolution})
        if (algorithmName(a) == name)
            return a;
    return std::nullopt;
}

SearchResult searchSchedules(const ir::Graph& graph, const target::Target& target,
                             const SearchOptions& options, std::stop_token stop,
                             const ProgressCallback& progress) {
    SearchRun run(graph, target, options, std::move(stop), progress);
    if (!run.done()) {
        if (options.algorithm == Algorithm::Evolution)
            runEvolution(run);
        else
            runLocalSearch(run);
    }
    return run.finish();
}

} // namespace strata::search
