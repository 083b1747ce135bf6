#include "jobs/CompileJob.h"

#include "compiler/Pipeline.h"

#include <QElapsedTimer>
#include <exception>

namespace strata::gui {

namespace {

// compiler::compile() with every pass dumped (the Pipeline tab shows them) and the job's
// question before each step.
std::shared_ptr<const compiler::CompileResult>
compileInSteps(const Revision& revision, std::vector<Diagnostic>& failure, bool& cancelled,
               const std::function<bool(int, const std::string&)>& proceed) {
    compiler::CompileOptions options;
    options.dumpAfter = {"all"};
    options.proceed = [&](int step, const std::string& name) {
        cancelled = !proceed(step, name);
        return !cancelled;
    };
    const flow::Revision in = revision.forFlow();
    auto result = compiler::compile(in.graph, in.target, in.schedule, options);
    if (cancelled)
        return nullptr;
    if (!result) {
        failure = result.takeDiagnostics();
        return nullptr;
    }
    return std::make_shared<compiler::CompileResult>(std::move(result).value());
}

} // namespace

CompileJob::CompileJob(QObject* parent) : QObject(parent) {}

int CompileJob::stepCount() {
    return static_cast<int>(compiler::passes().size()) + 1;
}

CompileOutcome CompileJob::run(const RevisionPtr& revision,
                               const std::function<bool(int, const std::string&)>& proceed) {
    CompileOutcome outcome;
    outcome.revision = revision;
    QElapsedTimer timer;
    timer.start();
    // Core reports bad input as diagnostics; anything else must not reach the event loop.
    try {
        if (!revision || !revision->isComplete())
            outcome.failure = {error("nothing to compile: no model, target or schedule")};
        else
            outcome.result = compileInSteps(*revision, outcome.failure, outcome.cancelled, proceed);
    } catch (const std::exception& e) {
        outcome.result.reset();
        outcome.failure = {error(std::string("compiling failed: ") + e.what())};
    }
    outcome.elapsedMs = timer.elapsed();
    return outcome;
}

std::uint64_t CompileJob::start(RevisionPtr revision) {
    // The lane's stage is "step name": progress once per step.
    auto work = [revision = std::move(revision)](const Proceed& proceed) {
        return run(revision, [&proceed](int step, const std::string& name) {
            return proceed(QString::number(step) + QLatin1Char(' ') + QString::fromStdString(name));
        });
    };
    auto onProgress = [this](const QString& stage) {
        const qsizetype space = stage.indexOf(QLatin1Char(' '));
        emit progress(stage.left(space).toInt(), stepCount(), stage.mid(space + 1));
    };
    return m_jobs.start<CompileOutcome>(
        std::move(work),
        [this](CompileOutcome outcome) {
            outcome.generation = m_jobs.generation();
            emit finished(outcome);
        },
        std::move(onProgress));
}

void CompileJob::cancel() {
    m_jobs.cancel();
}

} // namespace strata::gui
