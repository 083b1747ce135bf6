// Per-stretch reuse (search/StretchTimes.h): an evaluator that emulates only the stretches an
// edit changed gives exactly the totals of compiling and emulating every candidate whole, on the
// built-in strategies and a walk of random edits, with cached reads too; a search with reuse
// returns what one without returns for the same seed.

#include "ScheduleFixtures.h"
#include "schedule/Strategies.h"
#include "search/Evaluation.h"
#include "search/Search.h"
#include "support/TestModels.h"

#include <gtest/gtest.h>

namespace strata::search {
namespace {

// The strategies' schedules, then a walk of random edits from rules (each from the last one
// that validated, so the walk stays near schedules the reusing evaluator has seen).
std::vector<schedule::Schedule> walk(const ir::Graph& graph, const target::Target& target,
                                     int steps) {
    std::vector<schedule::Schedule> out;
    for (auto strategy :
         {schedule::Strategy::PerOp, schedule::Strategy::Rules, schedule::Strategy::FuseMax})
        out.push_back(schedule::makeSchedule(graph, target, strategy));
    schedule::AnalysisCache analysis(graph, target);
    Random random(7);
    schedule::Schedule at = out[1];
    for (int i = 0; i < steps; ++i)
        if (auto next = mutate(at, graph, target, SearchSpace{}, random, analysis)) {
            out.push_back(*next);
            if (i % 3 != 2)
                at = std::move(*next); // now and then a sibling instead of a child
        }
    return out;
}

// Evaluates the walk from `graph` on `target` with both evaluators, expects the same totals for
// every candidate, and returns how many were valid.
int expectReuseMatchesWhole(const ir::Graph& graph, const target::Target& target,
                            Evaluator& reusing, Evaluator& whole, const std::string& label) {
    int evaluated = 0;
    for (const schedule::Schedule& s : walk(graph, target, 40)) {
        const auto a = reusing.evaluate(s), b = whole.evaluate(s);
        EXPECT_EQ(a.has_value(), b.has_value()) << label;
        if (!a || !b)
            continue;
        ++evaluated;
        EXPECT_EQ(a->emulatedPs, b->emulatedPs) << label;
        EXPECT_EQ(a->dramBytes, b->dramBytes) << label;
        EXPECT_EQ(a->sramPeakBytes, b->sramPeakBytes) << label;
    }
    return evaluated;
}

TEST(StretchReuse, EqualsTheWholeProgramsEmulation) {
    for (const char* model : {"resnet_tiny.onnx", "transformer_block.onnx", "mobilenet_tiny.onnx"})
        for (const char* preset : {"mncore2", "mlu100"}) {
            const auto graph = test::sample(model);
            const auto target = test::preset(preset);
            Evaluator reusing(*graph, target, true), whole(*graph, target, false);
            ASSERT_TRUE(reusing.reusing());
            ASSERT_FALSE(whole.reusing());
            const int evaluated = expectReuseMatchesWhole(*graph, target, reusing, whole,
                                                          std::string(model) + " on " + preset);
            EXPECT_GT(evaluated, 10) << model << " on " << preset;
            // Stretches were both looked up and emulated: the walk exercised the reuse.
            EXPECT_GT(reusing.stretches()->hits(), 0u) << model << " on " << preset;
            EXPECT_GT(reusing.stretches()->misses(), 0u) << model << " on " << preset;
        }
}

TEST(StretchReuse, SearchFindsTheSameBestAsWithout) {
    const auto graph = test::sample("resnet_tiny.onnx");
    const auto target = test::preset("mncore2");
    for (Algorithm algorithm : {Algorithm::Local, Algorithm::Evolution}) {
        SearchOptions options;
        options.budgetSeconds = 0;
        options.maxEvaluations = 80;
        options.threads = 2;
        options.seed = 5;
        options.algorithm = algorithm;
        options.objective = Objective::Pareto;
        SearchOptions without = options;
        without.reuse = false;
        const SearchResult a = searchSchedules(*graph, target, options);
        const SearchResult b = searchSchedules(*graph, target, without);
        ASSERT_TRUE(a.best && b.best);
        EXPECT_EQ(a.evaluated, b.evaluated);
        EXPECT_EQ(a.invalid, b.invalid);
        EXPECT_EQ(a.best->schedule, b.best->schedule) << algorithmName(algorithm);
        EXPECT_EQ(a.best->evaluation, b.best->evaluation) << algorithmName(algorithm);
        ASSERT_EQ(a.pareto.size(), b.pareto.size());
        for (std::size_t i = 0; i < a.pareto.size(); ++i)
            EXPECT_EQ(a.pareto[i].evaluation, b.pareto[i].evaluation);
    }
}

// On a target with cached reads a stretch is keyed and emulated with the stretches before it
// whose stores a core may still hold in its cache: the totals stay the whole program's.
TEST(StretchReuse, EqualsTheWholeProgramsEmulationWithCachedReads) {
    for (const char* model : {"resnet_tiny.onnx", "mobilenet_tiny.onnx"})
        for (const char* preset : {"mncore2", "host"}) {
            const auto graph = test::sample(model);
            auto target = test::preset(preset);
            for (target::TransferPath& path : target.paths)
                if (path.source == target.mainMemory && !path.cachedReads)
                    path.cachedReads =
                        target::ReadFigures{path.bytesPerCycle * 4, path.latencyCycles / 4};
            Evaluator reusing(*graph, target, true), whole(*graph, target, false);
            const int evaluated = expectReuseMatchesWhole(*graph, target, reusing, whole,
                                                          std::string(model) + " on " + preset);
            EXPECT_GT(evaluated, 10) << model << " on " << preset;
            EXPECT_GT(reusing.stretches()->hits(), 0u) << model << " on " << preset;
        }
}

// With cached reads and stores into held lines past a small private cache priced by their reuse
// distance: the stretches before one (its key) hold every byte its distances count, and its
// small program puts each tensor where the DRAM plan does (stores are told apart by address).
TEST(StretchReuse, EqualsTheWholeProgramsEmulationWithRatesByReuseDistance) {
    for (const char* model : {"resnet_tiny.onnx", "mobilenet_tiny.onnx"}) {
        const auto graph = test::sample(model);
        auto target = test::preset("host");
        target.privateCacheBytes = 16 * 1024;
        for (target::TransferPath& path : target.paths) {
            auto& figures = path.source == target.mainMemory ? path.cachedReads : path.cachedWrites;
            figures = target::ReadFigures{path.bytesPerCycle * 4, path.latencyCycles / 4};
            figures->byReuseDistance = {{16 * 1024, path.bytesPerCycle * 2},
                                        {256 * 1024, path.bytesPerCycle}};
        }
        Evaluator reusing(*graph, target, true), whole(*graph, target, false);
        EXPECT_GT(expectReuseMatchesWhole(*graph, target, reusing, whole, model), 10) << model;
        EXPECT_GT(reusing.stretches()->hits(), 0u) << model;
    }
}

} // namespace
} // namespace strata::search
