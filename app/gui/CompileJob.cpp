#include "CompileJob.h"

#include "compiler/CompileState.h"
#include "schedule/Validate.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <chrono>
#include <exception>

namespace strata::gui {

namespace {

// compiler::compile() with a question before each step. It mirrors Pipeline.cpp's driver
// (which has no hook for progress or cancel yet): the same check, state and records.
std::shared_ptr<const compiler::CompileResult>
compileInSteps(const CompileRequest& request, std::vector<Diagnostic>& failure, bool& cancelled,
               const std::function<bool(int, const std::string&)>& proceed) {
    const ir::Graph& graph = *request.graph;
    const target::Target& target = *request.target;
    if (!proceed(0, "check")) {
        cancelled = true;
        return nullptr;
    }
    schedule::ScheduleCheck check = schedule::checkSchedule(*request.schedule, graph, target);
    if (!check.valid()) {
        failure = std::move(check.diagnostics);
        return nullptr;
    }
    compiler::CompileState state{graph, target, *request.schedule, std::move(check.analysis), {},
                                 {},    {}};
    state.program.modelName = graph.name;
    state.program.modelHash = graph.contentHash;
    state.program.targetName = target.name;
    state.program.mainMemory = target.mainMemory;
    state.program.workingMemory = target.workingMemory;
    auto result = std::make_shared<compiler::CompileResult>();
    int step = 1;
    for (const compiler::Pass& pass : compiler::passes()) {
        if (!proceed(step++, pass.name)) {
            cancelled = true;
            return nullptr;
        }
        const auto start = std::chrono::steady_clock::now();
        pass.run(state);
        compiler::PassRecord record;
        record.name = pass.name;
        record.milliseconds =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        record.dump = pass.dump(state);
        result->passes.push_back(std::move(record));
        if (state.failed()) {
            failure = std::move(state.diagnostics);
            return nullptr;
        }
    }
    result->program = std::move(state.program);
    result->warnings = std::move(state.diagnostics);
    return result;
}

} // namespace

CompileJob::CompileJob(QObject* parent)
    : QObject(parent), m_generation(std::make_shared<std::atomic<std::uint64_t>>(0)) {
    m_pool.setMaxThreadCount(1);
    m_pool.setObjectName(QStringLiteral("CompileJob"));
}

CompileJob::~CompileJob() {
    ++*m_generation;
    m_pool.waitForDone();
}

int CompileJob::stepCount() {
    return static_cast<int>(compiler::passes().size()) + 1;
}

CompileOutcome CompileJob::run(const CompileRequest& request,
                               const std::function<bool(int, const std::string&)>& proceed) {
    CompileOutcome outcome;
    outcome.request = request;
    QElapsedTimer timer;
    timer.start();
    // Core reports bad input as diagnostics; anything else must not reach the event loop.
    try {
        if (!request.graph || !request.target || !request.schedule)
            outcome.failure = {error("nothing to compile: no model, target or schedule")};
        else
            outcome.result = compileInSteps(request, outcome.failure, outcome.cancelled, proceed);
    } catch (const std::exception& e) {
        outcome.result.reset();
        outcome.failure = {error(std::string("compiling failed: ") + e.what())};
    }
    outcome.elapsedMs = timer.elapsed();
    return outcome;
}

std::uint64_t CompileJob::start(CompileRequest request) {
    const std::uint64_t generation = ++*m_generation;
    std::shared_ptr<const std::atomic<std::uint64_t>> latest = m_generation;
    // Progress crosses to the UI thread queued; this object outlives the job (see ~CompileJob).
    auto proceed = [this, generation, latest](int step, const std::string& name) {
        if (latest->load() != generation)
            return false;
        QMetaObject::invokeMethod(
            this,
            [this, generation, step, name = QString::fromStdString(name)] {
                if (m_generation->load() == generation)
                    emit progress(step, stepCount(), name);
            },
            Qt::QueuedConnection);
        return true;
    };
    auto* watcher = new QFutureWatcher<CompileOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this,
            [guard = QPointer<CompileJob>(this), watcher, generation] {
                watcher->deleteLater();
                if (!guard || generation != guard->m_generation->load())
                    return;
                guard->m_running = false;
                CompileOutcome outcome = watcher->result();
                outcome.generation = generation;
                emit guard->finished(outcome);
            });
    m_running = true;
    watcher->setFuture(QtConcurrent::run(
        &m_pool, [request = std::move(request), proceed] { return run(request, proceed); }));
    return generation;
}

void CompileJob::cancel() {
    ++*m_generation;
    m_running = false;
}

} // namespace strata::gui
