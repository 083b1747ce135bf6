#include "jobs/EmulateJob.h"

#include "compiler/Pipeline.h"
#include "emulator/Emulator.h"
#include "jobs/FreedOffUiThread.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>

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
    QElapsedTimer timer;
    timer.start();
    // Core reports bad input as diagnostics; anything else must not reach the event loop.
    try {
        compiler::CompileOptions options;
        options.proceed = [&](int, const std::string&) {
            outcome.cancelled = !proceed(QStringLiteral("compile"));
            return !outcome.cancelled;
        };
        if (cache)
            options.cache = &cache->cacheFor(request.graph, request.target);
        auto compiled =
            compiler::compile(*request.graph, *request.target, *request.schedule, options);
        outcome.compileMs = timer.restart();
        if (outcome.cancelled)
            return outcome;
        if (!compiled) {
            outcome.failure = compiled.takeDiagnostics();
            return outcome;
        }
        if (!proceed(QStringLiteral("emulate"))) {
            outcome.cancelled = true;
            return outcome;
        }
        std::shared_ptr<const compiler::Program> program =
            freedOffUiThread(std::move(compiled->program));
        auto trace = emulator::emulate(*program, *request.target, *request.graph);
        if (!trace) {
            outcome.failure = trace.takeDiagnostics();
            return outcome;
        }
        outcome.summary = trace::summarize(*trace);
        EmulationRun run;
        run.revision = request.revision;
        run.graph = request.graph;
        run.program = std::move(program);
        run.trace = std::move(trace).value();
        run.targetName = request.targetName;
        outcome.run = freedOffUiThread(std::move(run));
        outcome.emulateMs = timer.elapsed();
    } catch (const std::exception& e) {
        outcome.run.reset();
        outcome.failure = {error(std::string("predicting failed: ") + e.what())};
    }
    return outcome;
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
