// The schedule search: on a graph small enough to enumerate every schedule of its space it finds
// the optimum; a seed gives the same result whatever the thread count; a cancel stops it within
// one candidate; every candidate it reports validates; the Pareto front is non-dominated.

#include "search/Search.h"

#include "ScheduleFixtures.h"
#include "schedule/Strategies.h"
#include "schedule/Validate.h"
#include "search/Measure.h"
#include "support/TestModels.h"

#include <gtest/gtest.h>
#include <limits>

namespace strata::search {
namespace {

// Every schedule of a chain's space with fusion and buffering free (mp and tiles as the
// strategies set them): each way to cut the chain, each block single or double buffered.
std::vector<schedule::Schedule> everyChainSchedule(const ir::Graph& graph,
                                                   const schedule::Schedule& like) {
    const std::size_t n = graph.ops.size();
    std::vector<schedule::Schedule> out;
    for (std::uint32_t cuts = 0; cuts < (1u << (n - 1)); ++cuts) {
        std::vector<std::vector<ir::OpId>> parts(1);
        for (std::uint32_t i = 0; i < n; ++i) {
            if (i > 0 && (cuts >> (i - 1)) & 1u)
                parts.emplace_back();
            parts.back().push_back(ir::OpId{i});
        }
        for (std::uint32_t buffering = 0; buffering < (1u << parts.size()); ++buffering) {
            schedule::Schedule s = like;
            s.blocks.clear();
            for (std::size_t b = 0; b < parts.size(); ++b) {
                schedule::Block block;
                block.id = static_cast<int>(b);
                block.ops = parts[b];
                block.mp = like.blocks.front().mp;
                block.buffering = (buffering >> b) & 1u ? 2 : 1;
                s.blocks.push_back(block);
            }
            out.push_back(std::move(s));
        }
    }
    return out;
}

SearchOptions countedOptions(std::int64_t candidates, int threads) {
    SearchOptions options;
    options.budgetSeconds = 0;
    options.maxEvaluations = candidates;
    options.threads = threads;
    return options;
}

void expectValid(const Candidate& c, const ir::Graph& graph, const target::Target& target) {
    const auto diagnostics = schedule::validate(c.schedule, graph, target);
    EXPECT_FALSE(hasErrors(diagnostics)) << test::joined(diagnostics);
}

TEST(Search, FindsTheOptimumOfAnEnumerableSpace) {
    const auto graph = test::convChain();
    const auto target = test::preset("mncore2");
    const schedule::Schedule like =
        schedule::makeSchedule(*graph, target, schedule::Strategy::PerOp);
    Evaluator evaluator(*graph, target);
    std::int64_t optimum = std::numeric_limits<std::int64_t>::max();
    int valid = 0;
    for (const auto& s : everyChainSchedule(*graph, like))
        if (auto e = evaluator.evaluate(s)) {
            optimum = std::min(optimum, e->emulatedPs);
            ++valid;
        }
    ASSERT_GT(valid, 1);

    for (Algorithm algorithm : {Algorithm::Local, Algorithm::Evolution}) {
        SearchOptions options = countedOptions(1000, 2);
        options.algorithm = algorithm;
        options.space.mp = options.space.tiles = false;
        const SearchResult r = searchSchedules(*graph, target, options);
        ASSERT_TRUE(r.best) << algorithmName(algorithm);
        EXPECT_EQ(r.best->evaluation.emulatedPs, optimum) << algorithmName(algorithm);
        // It never evaluates a schedule twice, so it evaluated at most the whole space.
        EXPECT_LE(r.evaluated, valid) << algorithmName(algorithm);
    }
}

TEST(Search, SameSeedSameResultWhateverTheThreads) {
    const auto graph = test::sample("resnet_tiny.onnx");
    const auto target = test::preset("mncore2");
    for (Algorithm algorithm : {Algorithm::Local, Algorithm::Evolution}) {
        SearchOptions one = countedOptions(60, 1), two = countedOptions(60, 2);
        one.algorithm = two.algorithm = algorithm;
        one.seed = two.seed = 42;
        const SearchResult a = searchSchedules(*graph, target, one);
        const SearchResult b = searchSchedules(*graph, target, two);
        ASSERT_TRUE(a.best && b.best);
        EXPECT_EQ(a.evaluated, b.evaluated);
        EXPECT_EQ(a.best->schedule, b.best->schedule) << algorithmName(algorithm);
        EXPECT_EQ(a.best->evaluation, b.best->evaluation);
        ASSERT_EQ(a.history.size(), b.history.size());
        for (std::size_t i = 0; i < a.history.size(); ++i)
            EXPECT_EQ(a.history[i].evaluated, b.history[i].evaluated);
    }
}

TEST(Search, AnotherSeedSearchesOtherCandidates) {
    const auto graph = test::sample("resnet_tiny.onnx");
    const auto target = test::preset("mncore2");
    SearchOptions a = countedOptions(40, 1), b = countedOptions(40, 1);
    a.seed = 1;
    b.seed = 2;
    a.keep = b.keep = 40;
    const SearchResult ra = searchSchedules(*graph, target, a),
                       rb = searchSchedules(*graph, target, b);
    bool differs = ra.leaders.size() != rb.leaders.size();
    for (std::size_t i = 0; !differs && i < ra.leaders.size(); ++i)
        differs = !(ra.leaders[i].schedule == rb.leaders[i].schedule);
    EXPECT_TRUE(differs);
}

TEST(Search, CancelStopsWithinOneCandidate) {
    const auto graph = test::sample("resnet_tiny.onnx");
    const auto target = test::preset("mncore2");
    for (int threads : {1, 2}) {
        std::stop_source stop;
        std::int64_t seenAtStop = -1;
        SearchOptions options = countedOptions(0, threads);
        options.budgetSeconds = 600; // the cancel, not the budget, must end it
        const SearchResult r = searchSchedules(*graph, target, options, stop.get_token(),
                                               [&](const SearchProgress& p) {
                                                   if (p.evaluated >= 10 && seenAtStop < 0) {
                                                       seenAtStop = p.evaluated;
                                                       stop.request_stop();
                                                   }
                                               });
        EXPECT_TRUE(r.cancelled);
        EXPECT_EQ(r.evaluated, seenAtStop);
        ASSERT_TRUE(r.best);
        expectValid(*r.best, *graph, target);
    }
}

TEST(Search, StoppedBeforeItStartsEvaluatesNothing) {
    const auto graph = test::convChain();
    const auto target = test::preset("mncore2");
    std::stop_source stop;
    stop.request_stop();
    const SearchResult r =
        searchSchedules(*graph, target, countedOptions(100, 1), stop.get_token());
    EXPECT_EQ(r.evaluated, 0);
    EXPECT_FALSE(r.best);
    EXPECT_TRUE(r.cancelled);
}

TEST(Search, EveryReportedCandidateValidatesAndBeatsNoStart) {
    const auto graph = test::sample("resnet_tiny.onnx");
    const auto target = test::preset("mncore2");
    SearchOptions options = countedOptions(80, 2);
    options.objective = Objective::Pareto;
    options.keep = 5;
    const SearchResult r = searchSchedules(*graph, target, options);
    ASSERT_TRUE(r.best);
    expectValid(*r.best, *graph, target);
    for (const auto& c : r.leaders)
        expectValid(c, *graph, target);
    for (const auto& c : r.pareto)
        expectValid(c, *graph, target);
    ASSERT_EQ(r.baselines.size(), 3u);
    for (const auto& b : r.baselines)
        if (b.evaluation) {
            EXPECT_LE(r.best->evaluation.emulatedPs, b.evaluation->emulatedPs) << b.strategy;
        }
    EXPECT_EQ(r.leaders.size(), 5u);
}

TEST(Search, TheParetoFrontIsNonDominatedAndSortedByLatency) {
    const auto graph = test::sample("resnet_tiny.onnx");
    const auto target = test::preset("mncore2");
    SearchOptions options = countedOptions(80, 2);
    options.objective = Objective::Pareto;
    options.algorithm = Algorithm::Evolution;
    const SearchResult r = searchSchedules(*graph, target, options);
    ASSERT_FALSE(r.pareto.empty());
    for (std::size_t i = 1; i < r.pareto.size(); ++i) {
        EXPECT_LT(r.pareto[i - 1].evaluation.emulatedPs, r.pareto[i].evaluation.emulatedPs);
        EXPECT_GT(r.pareto[i - 1].evaluation.dramBytes, r.pareto[i].evaluation.dramBytes);
    }
    EXPECT_EQ(r.pareto.front().evaluation.emulatedPs, r.best->evaluation.emulatedPs);
}

TEST(Search, DramObjectiveMinimisesDramBytes) {
    const auto graph = test::sample("resnet_tiny.onnx");
    const auto target = test::preset("mncore2");
    SearchOptions options = countedOptions(60, 2);
    options.objective = Objective::Dram;
    const SearchResult r = searchSchedules(*graph, target, options);
    ASSERT_TRUE(r.best);
    for (const auto& p : r.pareto)
        EXPECT_LE(r.best->evaluation.dramBytes, p.evaluation.dramBytes);
}

TEST(Search, MeasuresCandidatesOnTheHost) {
    const auto graph = test::convChain();
    const auto target = test::preset("host");
    SearchOptions options = countedOptions(10, 1);
    options.keep = 2;
    const SearchResult r = searchSchedules(*graph, target, options);
    ASSERT_EQ(r.leaders.size(), 2u);
    const auto measured = measureCandidates(*graph, target, r.leaders, 2);
    ASSERT_TRUE(measured) << test::joined(measured.diagnostics());
    ASSERT_EQ(measured->size(), 2u);
    for (const auto& m : *measured) {
        EXPECT_EQ(m.runsNs.size(), 2u);
        EXPECT_GT(m.measuredNs, 0);
    }
    EXPECT_LT(fastestMeasured(*measured), 2u);
}

// A stop ends the compiles too: a candidate that would not compile is never reached.
TEST(Search, MeasuringStoppedBeforeItStartsCompilesNothing) {
    const auto graph = test::convChain();
    const auto target = test::preset("host");
    const std::vector<Candidate> uncompilable = {Candidate{schedule::Schedule{}, {}}};
    EXPECT_FALSE(measureCandidates(*graph, target, uncompilable, 2)); // a compile error
    std::stop_source stop;
    stop.request_stop();
    const auto measured = measureCandidates(*graph, target, uncompilable, 2, stop.get_token());
    ASSERT_FALSE(measured);
    ASSERT_EQ(measured.diagnostics().size(), 1u);
    EXPECT_EQ(measured.diagnostics().front().message, "measure: cancelled");
}

} // namespace
} // namespace strata::search
