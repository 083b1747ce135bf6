#include "compiler/passes/Verify.h"

#include "compiler/passes/ChooseLayouts.h"
#include "compiler/passes/VerifyChecks.h"
#include "compiler/passes/VerifyChunks.h"

#include <functional>
#include <future>

namespace strata::compiler {
namespace {

using namespace checks;

constexpr std::size_t kParallelFrom = 20'000; // instructions; below, threads cost more than they save

// An epoch's accesses: every core's, in core order. One race says enough: the barriers are wrong.
void checkMainMemoryRaces(const std::vector<StreamFacts>& facts, const Program& p, const ir::Graph& g,
                          const target::Target& t, std::vector<Diagnostic>& out) {
    std::size_t epochs = 0;
    for (const StreamFacts& f : facts) epochs = std::max(epochs, f.mainAccesses.size());
    std::vector<const MainAccess*> accesses;
    RaceScratch scratch;
    for (std::size_t e = 0; e < epochs; ++e) {
        accesses.clear();
        for (const StreamFacts& f : facts)
            if (e < f.mainAccesses.size())
                for (const MainAccess& a : f.mainAccesses[e]) accesses.push_back(&a);
        if (auto [write, access] = findRace(accesses, scratch); write) {
            out.push_back(raceError(*write, *access, p, g, t));
            return;
        }
    }
}

} // namespace

std::vector<Diagnostic> verifyProgram(const Program& program, const ir::Graph& graph, const target::Target& target) {
    std::vector<Diagnostic> out;
    // Both steps read the program only and write their own results, so a big program has its
    // cores' streams walked side by side; results are joined in a fixed order (cores, then races).
    const std::size_t cores = program.streams.size();
    const bool parallel = program.instructions.size() >= kParallelFrom;
    auto forEachCore = [&](const std::function<void(std::size_t)>& work, const std::function<void()>& alongside) {
        if (!parallel) {
            for (std::size_t core = 0; core < cores; ++core) work(core);
            alongside();
            return;
        }
        // One thread per hardware thread, not per core: a target may have 65,536 cores.
        const std::size_t threads =
            std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, cores);
        std::vector<std::future<void>> jobs;
        for (std::size_t first = 0; first < threads; ++first)
            jobs.push_back(std::async(std::launch::async, [&, first] {
                for (std::size_t core = first; core < cores; core += threads)
                    work(core);
            }));
        alongside();
        for (auto& job : jobs) job.get();
    };

    const std::vector<std::uint32_t> elementBytes = elementBytesOf(graph);
    std::vector<StreamFacts> facts(cores);
    forEachCore(
        [&](std::size_t core) {
            facts[core] = streamFacts(program, graph, target, elementBytes, core, 0, program.streams[core].size());
        },
        [] {});
    // Over all cores: the epoch (barriers passed) of the last store of every tensor, and the
    // deliveries of each epoch, in core order.
    std::vector<int> storeEpoch(graph.values.size(), -1);
    Deliveries deliveries;
    for (StreamFacts& f : facts) {
        for (std::size_t v = 0; v < storeEpoch.size(); ++v) storeEpoch[v] = std::max(storeEpoch[v], f.storeEpoch[v]);
        if (deliveries.size() < f.deliveries.size()) deliveries.resize(f.deliveries.size());
        for (std::size_t e = 0; e < f.deliveries.size(); ++e)
            deliveries[e].insert(deliveries[e].end(), f.deliveries[e].begin(), f.deliveries[e].end());
    }

    std::vector<std::vector<Diagnostic>> found(cores + 1);
    forEachCore(
        [&](std::size_t core) {
            CoreChecker(program, graph, target, static_cast<int>(core), elementBytes, storeEpoch, deliveries, found[core])
                .run();
        },
        [&] { checkMainMemoryRaces(facts, program, graph, target, found.back()); });
    for (auto& part : found) out.insert(out.end(), std::make_move_iterator(part.begin()), std::make_move_iterator(part.end()));
    checkLayouts(program, graph, out);
    return out;
}

void verify(CompileState& state) {
    auto found = state.cache ? verifyWithCache(state) : verifyProgram(state.program, state.graph, state.target);
    if (state.cache) { // the chunks' checks leave the layouts out (verifyProgram has them)
        std::vector<Diagnostic> layouts;
        checkLayouts(state.program, state.graph, layouts);
        for (Diagnostic& d : layouts)
            if (std::none_of(found.begin(), found.end(),
                             [&](const Diagnostic& f) { return f.message == d.message; }))
                found.push_back(std::move(d));
    }
    state.diagnostics.insert(state.diagnostics.end(), found.begin(), found.end());
}

} // namespace strata::compiler
