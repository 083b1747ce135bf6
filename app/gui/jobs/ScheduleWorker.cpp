#include "jobs/ScheduleWorker.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>
#include <string>

namespace strata::gui {

namespace {

ScheduleJobResult runIfCurrent(std::uint64_t generation, const ScheduleJob& job,
                               const std::shared_ptr<const std::atomic<std::uint64_t>>& latest) {
    // A job queued behind a newer one would be dropped anyway: skip the work.
    if (latest->load() != generation) {
        ScheduleJobResult skipped;
        skipped.generation = generation;
        return skipped;
    }
    ScheduleJobResult result = ScheduleWorker::run(job);
    result.generation = generation;
    return result;
}

} // namespace

ScheduleWorker::ScheduleWorker(QObject* parent)
    : QObject(parent), m_generation(std::make_shared<std::atomic<std::uint64_t>>(0)) {
    m_pool.setMaxThreadCount(1); // jobs one at a time: the caches they use are not thread-safe
    m_pool.setObjectName(QStringLiteral("ScheduleWorker"));
}

ScheduleWorker::~ScheduleWorker() {
    ++*m_generation; // let queued jobs return without working
    m_pool.waitForDone();
}

ScheduleJobResult ScheduleWorker::run(const ScheduleJob& job) {
    ScheduleJobResult result;
    result.job = job;
    QElapsedTimer timer;
    timer.start();
    // Core reports bad input as diagnostics; anything else (out of memory) must still not
    // escape into the event loop, where QFuture would rethrow it.
    try {
        if (!job.graph || !job.target) {
            result.failure = {error("no model or no target to schedule for")};
            return result;
        }
        schedule::AnalysisCache* cache =
            job.cache && job.cache->isFor(*job.graph, *job.target) ? job.cache.get() : nullptr;
        if (job.kind == ScheduleJob::Kind::Make) {
            result.schedule = std::make_shared<const schedule::Schedule>(
                schedule::makeSchedule(*job.graph, *job.target, job.strategy));
        } else {
            result.schedule = job.schedule;
        }
        if (!result.schedule) {
            result.failure = {error("no schedule to check")};
            return result;
        }
        result.check = std::make_shared<const schedule::ScheduleCheck>(
            schedule::checkSchedule(*result.schedule, *job.graph, *job.target, cache));
    } catch (const std::exception& e) {
        result.schedule.reset();
        result.check.reset();
        result.failure = {error(std::string(job.kind == ScheduleJob::Kind::Make
                                                ? "making the schedule failed: "
                                                : "checking the schedule failed: ") +
                                e.what())};
    }
    result.elapsedMs = timer.elapsed();
    return result;
}

std::uint64_t ScheduleWorker::start(ScheduleJob job) {
    const std::uint64_t generation = ++*m_generation;
    std::shared_ptr<const std::atomic<std::uint64_t>> latest = m_generation;

    auto* watcher = new QFutureWatcher<ScheduleJobResult>(this);
    connect(watcher, &QFutureWatcherBase::finished, this,
            [guard = QPointer<ScheduleWorker>(this), watcher, generation] {
                watcher->deleteLater();
                if (!guard)
                    return;
                --guard->m_inFlight;
                if (generation == guard->m_generation->load()) {
                    guard->m_running = false;
                    emit guard->finished(watcher->result());
                }
                // The receiver of finished() may have started another job.
                if (guard && guard->m_inFlight == 0)
                    emit guard->idle();
            });
    ++m_inFlight;
    m_running = true;
    watcher->setFuture(
        QtConcurrent::run(&m_pool, runIfCurrent, generation, std::move(job), latest));
    return generation;
}

void ScheduleWorker::drain() {
    m_pool.waitForDone();
    // The watchers' finished signals are posted events; deliver them now.
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
}

void ScheduleWorker::cancel() {
    ++*m_generation;
    m_running = false;
}

} // namespace strata::gui
