#include "flow/Flow.h"

#include "emulator/Emulator.h"

#include <chrono>
#include <exception>
#include <fmt/format.h>

namespace strata::flow {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// One flow going through its stages, filling its result.
class Route {
  public:
    Route(const Revision& revision, const Options& options)
        : m_revision(revision), m_options(options) {}

    Result take() { return std::move(m_result); }

    bool compile() {
        m_result.stage = Stage::Compile;
        const Clock::time_point start = Clock::now();
        compiler::CompileOptions options;
        options.cache = m_options.cache;
        bool stopped = false;
        if (m_options.proceed)
            options.proceed = [&](int, const std::string&) {
                stopped = !m_options.proceed(Stage::Compile);
                return !stopped;
            };
        auto compiled =
            compiler::compile(m_revision.graph, m_revision.target, m_revision.schedule, options);
        m_result.compileMs += msSince(start);
        if (!compiled) {
            m_result.cancelled = stopped;
            m_result.diagnostics = compiled.takeDiagnostics();
            return false;
        }
        m_result.compiled = std::move(compiled).value();
        return true;
    }

    // Enters `stage`, unless the caller stops the flow there.
    bool enter(Stage stage) {
        m_result.stage = stage;
        if (!m_options.proceed || m_options.proceed(stage))
            return true;
        m_result.cancelled = true;
        m_result.diagnostics = {error(fmt::format("{} cancelled", stageName(stage)))};
        return false;
    }

    // Checks the program once, in the current stage (its time counts in `ms`).
    bool check(double& ms) {
        if (m_result.checked)
            return true;
        const Clock::time_point start = Clock::now();
        std::vector<Diagnostic> diagnostics;
        const CheckProgram& check = m_options.check;
        emulator::CheckedProgram checked =
            check ? check(m_result.program(), m_revision.target, m_revision.graph, diagnostics)
                  : emulator::checkProgram(m_result.program(), m_revision.target, m_revision.graph,
                                           diagnostics);
        ms += msSince(start);
        if (hasErrors(diagnostics)) {
            m_result.diagnostics = std::move(diagnostics);
            return false;
        }
        m_result.checked = std::move(checked);
        return true;
    }

    bool emulate() {
        if (!enter(Stage::Emulate) || !check(m_result.emulateMs))
            return false;
        const Clock::time_point start = Clock::now();
        auto trace = emulator::emulate(m_result.program(), *m_result.checked, m_revision.target,
                                       m_revision.graph);
        if (!trace) {
            m_result.emulateMs += msSince(start);
            m_result.diagnostics = trace.takeDiagnostics();
            return false;
        }
        m_result.predictedSummary = trace::summarize(*trace);
        m_result.predicted = std::move(trace).value();
        m_result.emulateMs += msSince(start);
        return true;
    }

    bool run(const std::vector<reference::Tensor>& inputs) {
        if (!enter(Stage::Run) || !check(m_result.runMs))
            return false;
        const Clock::time_point start = Clock::now();
        auto measured = runtime::run(m_result.program(), *m_result.checked, m_revision.target,
                                     m_revision.graph, inputs, m_options.run);
        if (!measured) {
            m_result.runMs += msSince(start);
            m_result.diagnostics = measured.takeDiagnostics();
            return false;
        }
        m_result.measuredSummary = trace::summarize(measured->trace);
        if (m_result.predicted)
            m_result.blockErrors =
                trace::blockErrors(m_result.predictedSummary, m_result.measuredSummary);
        m_result.measured = std::move(measured).value();
        m_result.runMs += msSince(start);
        return true;
    }

    // Nothing Strata calls should throw; if something does (out of memory), the result says
    // where instead of the exception reaching a caller's event loop.
    template <typename Stages> Result guarded(Stages stages) {
        try {
            stages();
        } catch (const std::exception& e) {
            m_result.diagnostics.push_back(
                error(fmt::format("{} failed: {}", stageName(m_result.stage), e.what())));
        }
        return take();
    }

    Result& result() { return m_result; }

  private:
    const Revision& m_revision;
    const Options& m_options;
    Result m_result;
};

} // namespace

std::string_view stageName(Stage stage) {
    switch (stage) {
    case Stage::Compile:
        return "compile";
    case Stage::Emulate:
        return "emulate";
    case Stage::Run:
        return "run";
    }
    return "compile";
}

Result compile(const Revision& revision, const Options& options) {
    Route route(revision, options);
    return route.guarded([&] { return route.compile() && route.check(route.result().compileMs); });
}

Result predict(const Revision& revision, const Options& options) {
    Route route(revision, options);
    return route.guarded([&] { return route.compile() && route.emulate(); });
}

Result measure(const Revision& revision, const std::vector<reference::Tensor>& inputs,
               const Options& options) {
    Route route(revision, options);
    return route.guarded([&] {
        return route.compile() && (!options.predict || route.emulate()) && route.run(inputs);
    });
}

Expected<runtime::RunResult> run(const Result& result, const Revision& revision,
                                 const std::vector<reference::Tensor>& inputs,
                                 const runtime::RunOptions& options) {
    if (!result.compiled || !result.checked)
        return error("run: the program was not compiled and checked");
    try {
        return runtime::run(result.program(), *result.checked, revision.target, revision.graph,
                            inputs, options);
    } catch (const std::exception& e) {
        return error(std::string("run failed: ") + e.what());
    }
}

} // namespace strata::flow
