#include "jobs/EmulateJob.h"

#include "jobs/FreedOffUiThread.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <string_view>

namespace strata::gui {

EmulateJob::EmulateJob(QObject* parent)
    : QObject(parent), m_generation(std::make_shared<std::atomic<std::uint64_t>>(0)),
      m_cache(std::make_shared<CompileCacheSlot>()) {
    m_pool.setMaxThreadCount(1);
    m_pool.setObjectName(QStringLiteral("EmulateJob"));
}

EmulateJob::~EmulateJob() {
    ++*m_generation;
    m_pool.waitForDone();
}

EmulateOutcome EmulateJob::run(const CompileRequest& request,
                               const std::function<bool(const QString&)>& proceed,
                               CompileCacheSlot* cache) {
    EmulateOutcome outcome;
    outcome.request = request;
    if (!request.graph || !request.target || !request.schedule) {
        outcome.failure = {error("nothing to emulate: no model, target or schedule")};
        return outcome;
    }
    flow::Options options;
    options.proceed = proceedByName(proceed);
    if (cache)
        options.cache = &cache->cacheFor(request.graph, request.target);
    flow::Result predicted =
        flow::predict({*request.graph, *request.target, *request.schedule}, options);
    outcome.compileMs = static_cast<qint64>(predicted.compileMs);
    outcome.emulateMs = static_cast<qint64>(predicted.emulateMs);
    outcome.cancelled = predicted.cancelled;
    if (!predicted.ok()) {
        if (!predicted.cancelled)
            outcome.failure = std::move(predicted.diagnostics);
        return outcome;
    }
    outcome.summary = std::move(predicted.predictedSummary);
    outcome.run = takeEmulation(request, predicted);
    return outcome;
}

flow::Proceed EmulateJob::proceedByName(const std::function<bool(const QString&)>& proceed) {
    return [proceed](flow::Stage stage) {
        const std::string_view name = flow::stageName(stage);
        return proceed(QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size())));
    };
}

std::shared_ptr<const EmulationRun> EmulateJob::takeEmulation(const CompileRequest& request,
                                                              flow::Result& flowed) {
    EmulationRun run;
    run.revision = request.revision;
    run.graph = request.graph;
    run.program = freedOffUiThread(std::move(flowed.compiled->program));
    run.trace = std::move(*flowed.predicted);
    run.targetName = request.targetName;
    return freedOffUiThread(std::move(run));
}

std::uint64_t EmulateJob::start(CompileRequest request) {
    const std::uint64_t generation = ++*m_generation;
    std::shared_ptr<const std::atomic<std::uint64_t>> latest = m_generation;
    auto lastStage = std::make_shared<QString>(); // the worker's own: progress only on a change
    auto proceed = [this, generation, latest, lastStage](const QString& stage) {
        if (latest->load() != generation)
            return false;
        if (stage != *lastStage) {
            *lastStage = stage;
            // Progress crosses to the UI thread queued; this object outlives the job.
            QMetaObject::invokeMethod(
                this,
                [this, generation, stage] {
                    if (m_generation->load() == generation)
                        emit progress(stage);
                },
                Qt::QueuedConnection);
        }
        return true;
    };
    auto* watcher = new QFutureWatcher<EmulateOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this,
            [guard = QPointer<EmulateJob>(this), watcher, generation] {
                watcher->deleteLater();
                if (!guard || generation != guard->m_generation->load())
                    return;
                guard->m_running = false;
                EmulateOutcome outcome = watcher->result();
                outcome.generation = generation;
                emit guard->finished(outcome);
            });
    m_running = true;
    watcher->setFuture(
        QtConcurrent::run(&m_pool, [request = std::move(request), proceed, cache = m_cache] {
            return run(request, proceed, cache.get());
        }));
    return generation;
}

void EmulateJob::cancel() {
    ++*m_generation;
    m_running = false;
}

} // namespace strata::gui
