#include "jobs/CompileJob.h"

#include "compiler/Pipeline.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>

namespace strata::gui {

namespace {

// compiler::compile() with every pass dumped (the Pipeline tab shows them) and the job's
// question before each step.
std::shared_ptr<const compiler::CompileResult>
compileInSteps(const CompileRequest& request, std::vector<Diagnostic>& failure, bool& cancelled,
               const std::function<bool(int, const std::string&)>& proceed) {
    compiler::CompileOptions options;
    options.dumpAfter = {"all"};
    options.proceed = [&](int step, const std::string& name) {
        cancelled = !proceed(step, name);
        return !cancelled;
    };
    auto result = compiler::compile(*request.graph, *request.target, *request.schedule, options);
    if (cancelled)
        return nullptr;
    if (!result) {
        failure = result.takeDiagnostics();
        return nullptr;
    }
    return std::make_shared<compiler::CompileResult>(std::move(result).value());
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

void CompileJob::drain() {
    m_pool.waitForDone();
    // Results and progress travel as posted events; deliver them now.
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
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
