#include "jobs/MeasureJob.h"

#include "jobs/EmulateJob.h"
#include "reference/Evaluator.h"
#include "runtime/Runtime.h"

#include <exception>

namespace strata::gui {

namespace {

constexpr std::uint64_t kInputSeed = 1; // the inputs `strata-cli run` uses

} // namespace

MeasureJob::MeasureJob(QObject* parent) : QObject(parent) {}

MeasureOutcome MeasureJob::run(const CompileRequest& request, const Proceed& proceed) {
    MeasureOutcome outcome;
    outcome.request = request;
    const EmulateOutcome predicted = EmulateJob::run(request, proceed);
    if (!predicted.ok()) {
        outcome.cancelled = predicted.cancelled;
        outcome.failure = predicted.failure;
        return outcome;
    }
    if (!proceed(QStringLiteral("run"))) {
        outcome.cancelled = true;
        return outcome;
    }
    // Core reports bad input as diagnostics; anything else must not reach the event loop.
    try {
        runtime::RunOptions options;
        options.repeat = kRepeats;
        const auto& emulation = *predicted.run;
        auto measured =
            runtime::run(*emulation.program, *request.target, *emulation.graph,
                         reference::sampleInputs(*emulation.graph, kInputSeed), options);
        if (!measured) {
            outcome.failure = measured.takeDiagnostics();
            return outcome;
        }
        auto run = std::make_shared<MeasuredRun>();
        run->emulation = predicted.run;
        run->measured = std::move(measured->trace);
        run->totalsNs = std::move(measured->totalsNs);
        outcome.run = std::move(run);
    } catch (const std::exception& e) {
        outcome.failure = {error(std::string("running on this computer failed: ") + e.what())};
    }
    return outcome;
}

std::uint64_t MeasureJob::start(CompileRequest request) {
    return m_jobs.start<MeasureOutcome>(
        [request = std::move(request)](const Proceed& proceed) { return run(request, proceed); },
        [this](MeasureOutcome outcome) {
            outcome.generation = m_jobs.generation();
            emit finished(outcome);
        },
        [this](const QString& stage) { emit progress(stage); });
}

void MeasureJob::cancel() {
    m_jobs.cancel();
}

} // namespace strata::gui
