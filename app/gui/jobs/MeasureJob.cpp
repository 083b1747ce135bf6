#include "jobs/MeasureJob.h"

#include "calibrate/OtherLoad.h"
#include "jobs/EmulateJob.h"
#include "reference/Evaluator.h"

namespace strata::gui {

namespace {

constexpr std::uint64_t kInputSeed = 1; // the inputs `strata-cli run` uses

} // namespace

MeasureJob::MeasureJob(QObject* parent) : QObject(parent) {}

MeasureOutcome MeasureJob::run(const RevisionPtr& revision, const Proceed& proceed) {
    MeasureOutcome outcome;
    outcome.revision = revision;
    if (!revision || !revision->isComplete()) {
        outcome.failure = {error("nothing to run: no model, target or schedule")};
        return outcome;
    }
    // Predicted and run through one flow: the program is checked once for both.
    flow::Options options;
    options.proceed = EmulateJob::proceedByName(proceed);
    options.run.repeat = kRepeats;
    const std::optional<calibrate::CpuTicks> before = calibrate::cpuTicksNow();
    flow::Result measured = flow::measure(
        revision->forFlow(), reference::sampleInputs(*revision->graph, kInputSeed), options);
    const std::optional<calibrate::CpuTicks> after = calibrate::cpuTicksNow();
    outcome.cancelled = measured.cancelled;
    if (!measured.ok()) {
        if (!measured.cancelled)
            outcome.failure = std::move(measured.diagnostics);
        return outcome;
    }
    auto run = std::make_shared<MeasuredRun>();
    run->emulation = EmulateJob::takeEmulation(revision, measured);
    run->measured = std::move(measured.measured->trace);
    run->totalsNs = std::move(measured.measured->totalsNs);
    run->blockErrors = std::move(measured.blockErrors);
    if (before && after)
        run->otherLoad = calibrate::otherLoadShare(*before, *after);
    outcome.run = std::move(run);
    return outcome;
}

std::uint64_t MeasureJob::start(RevisionPtr revision) {
    return m_jobs.start<MeasureOutcome>(
        [revision = std::move(revision)](const Proceed& proceed) { return run(revision, proceed); },
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
