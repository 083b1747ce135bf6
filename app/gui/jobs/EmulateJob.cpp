#include "jobs/EmulateJob.h"

#include "compiler/Pipeline.h"
#include "emulator/Emulator.h"
#include "jobs/FreedOffUiThread.h"

#include <QElapsedTimer>
#include <exception>

namespace strata::gui {

EmulateJob::EmulateJob(QObject* parent) : QObject(parent) {}

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
    return m_jobs.start<EmulateOutcome>(
        [request = std::move(request), cache = m_cache](const Proceed& proceed) {
            return run(request, proceed, cache.get());
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
