#pragma once
// Makes and checks schedules off the UI thread: run() is the job, on a JobLane. Every job has a
// generation; only the newest reports back, so a result for a schedule that was edited, undone
// or replaced meanwhile is dropped. The lane runs jobs one at a time: a job may use the analysis
// cache it is given without locks, as long as nobody else touches that cache until
// isCacheInUse() is false again (see idle()).

#include "jobs/JobRunner.h"
#include "schedule/Analysis.h"
#include "schedule/Schedule.h"
#include "schedule/Strategies.h"
#include "schedule/Validate.h"
#include "target/Target.h"

#include <QObject>
#include <cstdint>
#include <memory>
#include <vector>

namespace strata::gui {

struct ScheduleJob {
    enum class Kind { Make, Check };
    Kind kind = Kind::Check;
    std::shared_ptr<const ir::Graph> graph;
    std::shared_ptr<const target::Target> target;
    std::shared_ptr<schedule::AnalysisCache> cache; // made for (graph, target); may be null
    schedule::Strategy strategy = schedule::Strategy::FuseMax; // Make: the strategy to run
    std::shared_ptr<const schedule::Schedule> schedule;        // Check: the schedule to check
};

struct ScheduleJobResult {
    std::uint64_t generation = 0;
    ScheduleJob job;                                    // what was asked
    std::shared_ptr<const schedule::Schedule> schedule; // made, or the one checked
    std::shared_ptr<const schedule::ScheduleCheck> check;
    std::vector<Diagnostic> failure; // why there is no result
    qint64 elapsedMs = 0;

    bool ok() const { return schedule && check; }
};

class ScheduleWorker : public QObject {
    Q_OBJECT

  public:
    explicit ScheduleWorker(QObject* parent = nullptr);

    // Starts `job` and returns its generation; a job still running or queued is superseded
    // (a queued one is skipped, a running one's result dropped).
    std::uint64_t start(ScheduleJob job);
    // Drops the result of the running job.
    void cancel();
    // True from start() until the newest job has reported (or was cancelled).
    bool isRunning() const { return m_jobs.isRunning(); }
    // True while any job, superseded ones included, may still be using its cache.
    bool isCacheInUse() const { return !m_jobs.isIdle(); }

    // Runs `job` on the calling thread (tests, and edits that must be checked at once).
    static ScheduleJobResult run(const ScheduleJob& job);

  signals:
    // Only for the newest job.
    void finished(const strata::gui::ScheduleJobResult& result);
    // No job uses a cache any more.
    void idle();

  private:
    JobLane m_jobs{this};
};

} // namespace strata::gui
