#include "jobs/EmulateJob.h"

#include "jobs/FreedOffUiThread.h"

#include <string_view>

namespace strata::gui {

EmulateJob::EmulateJob(QObject* parent) : QObject(parent) {}

EmulateOutcome EmulateJob::run(const RevisionPtr& revision,
                               const std::function<bool(const QString&)>& proceed,
                               CompileCacheSlot* cache) {
    EmulateOutcome outcome;
    outcome.revision = revision;
    if (!revision || !revision->isComplete()) {
        outcome.failure = {error("nothing to emulate: no model, target or schedule")};
        return outcome;
    }
    flow::Options options;
    options.proceed = proceedByName(proceed);
    if (cache)
        options.cache = &cache->cacheFor(revision->graph, revision->machine());
    flow::Result predicted = flow::predict(revision->forFlow(), options);
    outcome.compileMs = static_cast<qint64>(predicted.compileMs);
    outcome.emulateMs = static_cast<qint64>(predicted.emulateMs);
    outcome.cancelled = predicted.cancelled;
    if (!predicted.ok()) {
        if (!predicted.cancelled)
            outcome.failure = std::move(predicted.diagnostics);
        return outcome;
    }
    outcome.summary = std::move(predicted.predictedSummary);
    outcome.run = takeEmulation(revision, predicted);
    return outcome;
}

flow::Proceed EmulateJob::proceedByName(const std::function<bool(const QString&)>& proceed) {
    return [proceed](flow::Stage stage) {
        const std::string_view name = flow::stageName(stage);
        return proceed(QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size())));
    };
}

std::shared_ptr<const EmulationRun> EmulateJob::takeEmulation(const RevisionPtr& revision,
                                                              flow::Result& flowed) {
    EmulationRun run;
    run.revision = revision;
    run.graph = revision->graph;
    run.compiled = freedOffUiThread(std::move(*flowed.compiled));
    run.program = std::shared_ptr<const compiler::Program>(run.compiled, &run.compiled->program);
    run.trace = std::move(*flowed.predicted);
    run.targetName = revision->targetName();
    return freedOffUiThread(std::move(run));
}

std::uint64_t EmulateJob::start(RevisionPtr revision) {
    return m_jobs.start<EmulateOutcome>(
        [revision = std::move(revision), cache = m_cache](const Proceed& proceed) {
            return run(revision, proceed, cache.get());
        },
        [this](EmulateOutcome outcome) {
            outcome.generation = m_jobs.generation();
            emit finished(outcome);
        },
        [this](const QString& stage) { emit progress(stage); });
}

void EmulateJob::cancel() {
    m_jobs.cancel();
}

} // namespace strata::gui
