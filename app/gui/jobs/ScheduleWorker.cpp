#include "jobs/ScheduleWorker.h"

#include <QElapsedTimer>
#include <exception>
#include <string>

namespace strata::gui {

ScheduleWorker::ScheduleWorker(QObject* parent) : QObject(parent) {
    m_jobs.setIdleHandler([this] { emit idle(); });
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
    return m_jobs.start<ScheduleJobResult>(
        [job = std::move(job)](const Proceed&) { return run(job); },
        [this](ScheduleJobResult result) {
            result.generation = m_jobs.generation();
            emit finished(result);
        });
}

void ScheduleWorker::cancel() {
    m_jobs.cancel();
}

} // namespace strata::gui
