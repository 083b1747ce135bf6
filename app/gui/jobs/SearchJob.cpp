#include "jobs/SearchJob.h"

#include "compiler/Pipeline.h"
#include "emulator/Emulator.h"

#include <QFutureWatcher>
#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>

namespace strata::gui {
namespace {

// `schedule` compiled and emulated with its counters, as Emulate (F5) would; null when it fails.
std::shared_ptr<const EmulationRun> timeline(const std::shared_ptr<const ir::Graph>& graph,
                                             const target::Target& target,
                                             const schedule::Schedule& schedule,
                                             std::uint64_t revision, const QString& targetName) {
    auto compiled = compiler::compile(*graph, target, schedule);
    if (!compiled)
        return nullptr;
    auto program = std::make_shared<const compiler::Program>(std::move(compiled->program));
    auto trace = emulator::emulate(*program, target, *graph);
    if (!trace)
        return nullptr;
    auto run = std::make_shared<EmulationRun>();
    run->revision = revision;
    run->graph = graph;
    run->program = std::move(program);
    run->trace = std::move(trace).value();
    run->targetName = targetName;
    return run;
}

struct Outcome {
    std::shared_ptr<const search::SearchResult> result;
    QString error;
    std::shared_ptr<const EmulationRun> start, best; // timelines, when both could be made
};

} // namespace

SearchJob::SearchJob(QObject* parent) : QObject(parent) {
    // The search spreads its candidates over its own workers; this thread only drives it.
    m_pool.setMaxThreadCount(1);
    m_pool.setObjectName(QStringLiteral("SearchJob"));
}

SearchJob::~SearchJob() {
    ++*m_generation;
    m_stop.request_stop();
    m_pool.waitForDone();
}

void SearchJob::start(std::shared_ptr<const ir::Graph> graph,
                      std::shared_ptr<const target::Target> target, search::SearchOptions options,
                      std::uint64_t revision, QString targetName) {
    m_stop.request_stop(); // an older search ends; its result is dropped by the generation
    m_stop = std::stop_source();
    const std::uint64_t mine = ++*m_generation;
    m_running = true;
    auto generation = m_generation;
    // `this` outlives the search (the destructor waits for it), and a queued call whose context
    // object is gone is dropped.
    auto report = [this, generation, mine](const search::SearchProgress& p) {
        if (generation->load() != mine)
            return;
        QMetaObject::invokeMethod(
            this,
            [this, generation, mine, p] {
                if (generation->load() == mine)
                    emit progress(p);
            },
            Qt::QueuedConnection);
    };
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, mine] {
        watcher->deleteLater();
        if (generation->load() != mine)
            return;
        m_running = false;
        const Outcome outcome = watcher->result();
        if (outcome.start && outcome.best)
            emit timed(outcome.start, outcome.best);
        emit finished(outcome.result, outcome.error);
    });
    watcher->setFuture(QtConcurrent::run(
        &m_pool,
        [graph = std::move(graph), target = std::move(target), options = std::move(options),
         token = m_stop.get_token(), report, revision, targetName]() -> Outcome {
            auto result = std::make_shared<search::SearchResult>();
            Outcome outcome;
            outcome.result = result;
            // Nothing may reach the event loop: a failure is reported as text.
            try {
                *result = search::searchSchedules(*graph, *target, options, token, report);
                if (result->best && !options.starts.empty()) {
                    outcome.start =
                        timeline(graph, *target, options.starts.front(), revision, targetName);
                    outcome.best =
                        timeline(graph, *target, result->best->schedule, revision, targetName);
                }
            } catch (const std::exception& e) {
                outcome.error = QString::fromUtf8(e.what());
                outcome.start = outcome.best = nullptr;
            }
            return outcome;
        }));
}

void SearchJob::cancel() {
    m_stop.request_stop();
}

} // namespace strata::gui
