#include "ZooStages.h"

#include "OutputCheck.h"
#include "flow/Flow.h"
#include "model/OnnxImporter.h"
#include "reference/Evaluator.h"
#include "schedule/Strategies.h"
#include "schedule/Validate.h"
#include "target/CalibratedHost.h"
#include "target/TargetLoader.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <optional>

namespace strata::cli {

namespace {

std::string firstError(const std::vector<Diagnostic>& diagnostics) {
    for (const auto& d : diagnostics)
        if (d.severity == Severity::Error)
            return d.toString();
    return diagnostics.empty() ? std::string("failed without a diagnostic")
                               : diagnostics.front().toString();
}

class StageClock {
  public:
    explicit StageClock(ZooRow& row, std::string name) : m_row(row) {
        m_row.stages.push_back({std::move(name), 0});
        m_start = std::chrono::steady_clock::now();
    }
    ~StageClock() {
        m_row.stages.back().ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_start)
                .count();
    }

  private:
    ZooRow& m_row;
    std::chrono::steady_clock::time_point m_start;
};

// One target and strategy; it goes on through the stages until one fails for it.
struct Case {
    std::string target;
    std::string strategy;
    const target::Target* resolved;
    std::optional<schedule::Schedule> schedule;
    flow::Result predicted;
    bool failed = false;

    std::string name() const { return target + " " + strategy; }
};

// Records a failure of the current stage; the row keeps the first one.
void fail(ZooRow& row, const std::string& caseName, std::string diagnostic) {
    ++row.failedCases[row.stages.back().name];
    if (!row.failedStage.empty())
        return;
    row.failedStage = row.stages.back().name;
    row.failedCase = caseName;
    row.diagnostic = std::move(diagnostic);
}

void fail(ZooRow& row, Case& c, std::string diagnostic) {
    c.failed = true;
    fail(row, c.name(), std::move(diagnostic));
}

void runStages(ZooRow& row) {
    std::shared_ptr<const ir::Graph> graph;
    {
        StageClock clock(row, "import");
        auto imported = model::importOnnxFile(row.path);
        if (!imported)
            return fail(row, "", firstError(imported.diagnostics()));
        graph = imported->graph;
    }
    row.ops = int(graph->ops.size());
    row.opTypes = graph->opTypeCounts();

    std::vector<target::Target> targets;
    std::vector<Case> cases;
    targets.reserve(zooTargets().size()); // cases point into it
    for (const auto& name : zooTargets()) {
        auto t = target::resolveTarget(name, target::userResolveOptions());
        if (!t)
            return fail(row, name, firstError(t.diagnostics()));
        targets.push_back(std::move(*t));
        for (const auto& strategy : zooStrategies())
            cases.push_back({name, strategy, &targets.back(), std::nullopt, {}});
    }
    {
        StageClock clock(row, "schedule");
        for (auto& c : cases) {
            auto s =
                schedule::makeSchedule(*graph, *c.resolved, *schedule::parseStrategy(c.strategy));
            auto problems = schedule::validate(s, *graph, *c.resolved);
            if (hasErrors(problems))
                fail(row, c, firstError(problems));
            else
                c.schedule = std::move(s);
        }
    }
    // Each case predicted through flow::predict; the row times its compile and emulate stages
    // apart, over every case, and takes compile failures before emulate ones.
    double compileMs = 0, emulateMs = 0;
    for (auto& c : cases) {
        if (c.failed)
            continue;
        c.predicted = flow::predict({*graph, *c.resolved, *c.schedule});
        compileMs += c.predicted.compileMs;
        emulateMs += c.predicted.emulateMs;
    }
    for (const auto& [stage, ms] :
         {std::pair{flow::Stage::Compile, compileMs}, std::pair{flow::Stage::Emulate, emulateMs}}) {
        row.stages.push_back({std::string(flow::stageName(stage)), ms});
        for (auto& c : cases) {
            if (c.failed || c.predicted.stage != stage)
                continue;
            if (!c.predicted.ok())
                fail(row, c, firstError(c.predicted.diagnostics));
            else if (c.target == "host" && c.strategy == "rules")
                row.emulatedHostNs = double(c.predicted.predictedSummary.totalPs) / 1e3;
        }
    }
    {
        StageClock clock(row, "run");
        const auto inputs = reference::sampleInputs(*graph, kCheckInputSeed);
        std::optional<std::vector<reference::Tensor>> expected;
        for (const auto& strategy : zooRunStrategies()) {
            auto c = std::find_if(cases.begin(), cases.end(), [&](const Case& k) {
                return k.target == "host" && k.strategy == strategy;
            });
            if (c->failed)
                continue;
            auto result = flow::run(c->predicted, {*graph, *c->resolved, *c->schedule}, inputs);
            if (!result) {
                fail(row, *c, firstError(result.diagnostics()));
                continue;
            }
            if (!expected) {
                auto evaluated = reference::evaluate(*graph, inputs);
                if (!evaluated)
                    return fail(row, *c,
                                "the reference cannot evaluate the model: " +
                                    firstError(evaluated.diagnostics()));
                expected = std::move(*evaluated);
            }
            if (const OutputCheck check = checkOutputs(*graph, result->outputs, *expected);
                !check.matches())
                fail(row, *c, check.differences.front());
            else if (strategy == "rules" && !result->totalsNs.empty())
                row.measuredHostNs = result->totalsNs.front();
        }
    }
}

} // namespace

const std::vector<std::string>& zooTargets() {
    static const std::vector<std::string> names{"mncore2", "mlu100", "host"};
    return names;
}

const std::vector<std::string>& zooStrategies() {
    static const std::vector<std::string> names{"per-op", "rules", "fuse-max"};
    return names;
}

const std::vector<std::string>& zooRunStrategies() {
    static const std::vector<std::string> names{"fuse-max", "rules"};
    return names;
}

ZooRow runZooModel(const std::string& path) {
    ZooRow row;
    row.path = path;
    row.model = std::filesystem::path(path).stem().string();
    try {
        runStages(row);
    } catch (const std::exception& e) {
        // Nothing Strata calls should throw; if something does, the row says where.
        if (row.stages.empty())
            row.stages.push_back({"import", 0});
        fail(row, "", std::string("internal error: ") + e.what());
    }
    return row;
}

} // namespace strata::cli
