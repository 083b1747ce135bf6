// The one route compile -> check -> emulate -> run on a bundled sample: predict and measure fill
// their stages, the program is checked once and both timelines are built from that check,
// cancelling stops at the stage asked, and failures come back as diagnostics of their stage.

#include "flow/Flow.h"

#include "model/OnnxImporter.h"
#include "reference/Evaluator.h"
#include "schedule/Strategies.h"
#include "support/TestModels.h"
#include "target/TargetLoader.h"

#include <gtest/gtest.h>
#include <memory>

namespace strata::test {
namespace {

constexpr std::int32_t kMarkedTile = 4242; // no compiled program has that many tiles

class Flow : public ::testing::Test {
  protected:
    void SetUp() override {
        auto imported =
            model::importOnnxFile(std::string(STRATA_SAMPLES_DIR) + "/resnet_tiny.onnx");
        ASSERT_TRUE(imported) << joined(imported.diagnostics());
        m_graph = imported->graph;
        auto host = target::resolveTarget("host");
        ASSERT_TRUE(host) << joined(host.diagnostics());
        m_target = std::move(*host);
        m_schedule = schedule::makeSchedule(*m_graph, m_target, schedule::Strategy::Rules);
        m_inputs = reference::sampleInputs(*m_graph, 7);
    }

    flow::Revision revision() const { return {*m_graph, m_target, m_schedule}; }

    // emulator::checkProgram, counted, with every step's tile marked: a timeline built from
    // another check would not carry the mark.
    flow::CheckProgram countedCheck() {
        return [this](const compiler::Program& program, const target::Target& target,
                      const ir::Graph& graph, std::vector<Diagnostic>& diagnostics) {
            ++m_checks;
            emulator::CheckedProgram checked =
                emulator::checkProgram(program, target, graph, diagnostics);
            for (emulator::Step& step : checked.steps)
                step.tile = kMarkedTile;
            return checked;
        };
    }

    std::shared_ptr<const ir::Graph> m_graph;
    target::Target m_target;
    schedule::Schedule m_schedule;
    std::vector<reference::Tensor> m_inputs;
    int m_checks = 0;
};

TEST_F(Flow, PredictCompilesEmulatesAndSummarises) {
    const flow::Result r = flow::predict(revision());
    ASSERT_TRUE(r.ok()) << joined(r.diagnostics);
    EXPECT_EQ(r.stage, flow::Stage::Emulate);
    EXPECT_TRUE(r.diagnostics.empty());
    ASSERT_TRUE(r.compiled && r.checked && r.predicted);
    EXPECT_FALSE(r.measured);
    EXPECT_EQ(r.predicted->source, trace::Source::Emulated);
    EXPECT_EQ(r.predicted->events.size(), r.program().instructions.size());
    EXPECT_EQ(r.checked->steps.size(), r.program().instructions.size());
    EXPECT_EQ(r.predictedSummary.totalPs, trace::summarize(*r.predicted).totalPs);
    EXPECT_GT(r.predictedSummary.totalPs, 0);
}

TEST_F(Flow, MeasureChecksTheProgramOnceForBothTimelines) {
    flow::Options options;
    options.check = countedCheck();
    const flow::Result r = flow::measure(revision(), m_inputs, options);
    ASSERT_TRUE(r.ok()) << joined(r.diagnostics);
    EXPECT_EQ(m_checks, 1);
    EXPECT_EQ(r.stage, flow::Stage::Run);
    ASSERT_TRUE(r.predicted && r.measured);
    const trace::Trace& predicted = *r.predicted;
    const trace::Trace& measured = r.measured->trace;
    EXPECT_EQ(measured.source, trace::Source::Measured);
    EXPECT_EQ(r.measuredSummary.totalPs, trace::summarize(measured).totalPs);
    ASSERT_EQ(predicted.events.size(), measured.events.size());
    // One skeleton: the same static fields event by event, the check's mark on every one.
    for (std::size_t i = 0; i < predicted.events.size(); ++i) {
        const trace::Event& p = predicted.events[i];
        const trace::Event& m = measured.events[i];
        EXPECT_EQ(p.tile, kMarkedTile);
        EXPECT_EQ(m.tile, kMarkedTile);
        EXPECT_EQ(p.id, m.id);
        EXPECT_EQ(p.kind, m.kind);
        EXPECT_EQ(p.core, m.core);
        EXPECT_EQ(p.block, m.block);
        EXPECT_EQ(p.bytes, m.bytes);
    }

    // The block errors of the two summaries, every block of the schedule measured.
    ASSERT_EQ(r.blockErrors.size(), m_schedule.blocks.size());
    for (std::size_t b = 0; b < r.blockErrors.size(); ++b) {
        const trace::BlockError& e = r.blockErrors[b];
        EXPECT_EQ(e.block, r.predictedSummary.blocks[b].block);
        EXPECT_EQ(e.predictedPs, r.predictedSummary.blocks[b].timePs);
        EXPECT_EQ(e.measuredPs, r.measuredSummary.blocks[b].timePs);
        EXPECT_DOUBLE_EQ(e.error,
                         trace::relativeError(double(e.predictedPs), double(e.measuredPs)));
    }

    // Another run of the same program reuses the check too.
    auto again = flow::run(r, revision(), m_inputs);
    ASSERT_TRUE(again) << joined(again.diagnostics());
    EXPECT_EQ(m_checks, 1);
    EXPECT_EQ(again->trace.events.size(), predicted.events.size());
    EXPECT_EQ(again->trace.events.front().tile, kMarkedTile);
}

TEST_F(Flow, MeasureWithoutPredictingRunsOnly) {
    flow::Options options;
    options.predict = false;
    options.check = countedCheck();
    options.run.repeat = 2;
    const flow::Result r = flow::measure(revision(), m_inputs, options);
    ASSERT_TRUE(r.ok()) << joined(r.diagnostics);
    EXPECT_EQ(m_checks, 1);
    EXPECT_FALSE(r.predicted);
    EXPECT_TRUE(r.blockErrors.empty()); // nothing predicted to be off
    ASSERT_TRUE(r.measured);
    EXPECT_EQ(r.measured->totalsNs.size(), 2u);
}

TEST_F(Flow, CancellingStopsAtTheStageAsked) {
    for (const flow::Stage stop : {flow::Stage::Compile, flow::Stage::Emulate, flow::Stage::Run}) {
        SCOPED_TRACE(std::string(flow::stageName(stop)));
        std::vector<flow::Stage> asked;
        flow::Options options;
        options.check = countedCheck();
        options.proceed = [&](flow::Stage stage) {
            asked.push_back(stage);
            return stage != stop;
        };
        m_checks = 0;
        const flow::Result r = flow::measure(revision(), m_inputs, options);
        EXPECT_FALSE(r.ok());
        EXPECT_TRUE(r.cancelled);
        EXPECT_EQ(r.stage, stop);
        ASSERT_FALSE(asked.empty());
        EXPECT_EQ(asked.back(), stop); // nothing asked after the stop
        EXPECT_TRUE(mentions(r.diagnostics, "cancelled"));
        EXPECT_EQ(bool(r.compiled), stop != flow::Stage::Compile);
        EXPECT_EQ(bool(r.predicted), stop == flow::Stage::Run);
        EXPECT_FALSE(r.measured);
        // The program is checked by the first stage that reads it, and only if it is reached.
        EXPECT_EQ(m_checks, stop == flow::Stage::Run ? 1 : 0);
    }
}

TEST_F(Flow, ACheckFailureIsTheFirstReadingStagesDiagnostic) {
    flow::Options options;
    options.check = [](const compiler::Program&, const target::Target&, const ir::Graph&,
                       std::vector<Diagnostic>& diagnostics) {
        diagnostics.push_back(error("injected: the program is wrong"));
        return emulator::CheckedProgram{};
    };
    const flow::Result predicted = flow::predict(revision(), options);
    EXPECT_FALSE(predicted.ok());
    EXPECT_FALSE(predicted.cancelled);
    EXPECT_EQ(predicted.stage, flow::Stage::Emulate);
    EXPECT_TRUE(mentions(predicted.diagnostics, "injected: the program is wrong"));
    EXPECT_TRUE(predicted.compiled);
    EXPECT_FALSE(predicted.checked || predicted.predicted);

    options.predict = false;
    const flow::Result measured = flow::measure(revision(), m_inputs, options);
    EXPECT_EQ(measured.stage, flow::Stage::Run);
    EXPECT_TRUE(mentions(measured.diagnostics, "injected"));
    EXPECT_FALSE(measured.measured);
    // A result that never got past its check cannot be run again.
    auto again = flow::run(measured, revision(), m_inputs);
    ASSERT_FALSE(again);
    EXPECT_TRUE(mentions(again.diagnostics(), "not compiled and checked"));
}

TEST_F(Flow, CompileAndRunErrorsComeBackAsDiagnostics) {
    schedule::Schedule empty = m_schedule;
    empty.blocks.clear();
    const flow::Result uncompiled = flow::predict({*m_graph, m_target, empty});
    EXPECT_FALSE(uncompiled.ok());
    EXPECT_FALSE(uncompiled.cancelled);
    EXPECT_EQ(uncompiled.stage, flow::Stage::Compile);
    EXPECT_TRUE(hasErrors(uncompiled.diagnostics));
    EXPECT_FALSE(uncompiled.compiled);

    // The runtime refuses inputs the model does not take, after the prediction went through.
    const flow::Result unrun = flow::measure(revision(), {});
    EXPECT_FALSE(unrun.ok());
    EXPECT_EQ(unrun.stage, flow::Stage::Run);
    EXPECT_TRUE(unrun.predicted);
    EXPECT_FALSE(unrun.measured);
    EXPECT_TRUE(mentions(unrun.diagnostics, "inputs given"));
}

TEST_F(Flow, CompileChecksWithoutEmulating) {
    flow::Options options;
    options.check = countedCheck();
    const flow::Result r = flow::compile(revision(), options);
    ASSERT_TRUE(r.ok()) << joined(r.diagnostics);
    EXPECT_EQ(r.stage, flow::Stage::Compile);
    EXPECT_TRUE(r.compiled && r.checked);
    EXPECT_FALSE(r.predicted || r.measured);
    EXPECT_EQ(m_checks, 1);
}

TEST(FlowStage, Names) {
    EXPECT_EQ(flow::stageName(flow::Stage::Compile), "compile");
    EXPECT_EQ(flow::stageName(flow::Stage::Emulate), "emulate");
    EXPECT_EQ(flow::stageName(flow::Stage::Run), "run");
}

} // namespace
} // namespace strata::test
