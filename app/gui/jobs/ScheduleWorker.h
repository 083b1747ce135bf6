#pragma once
// Makes and checks schedules off the UI thread (hotspot's JobTracker idea, as ModelLoader does
// for imports). Every job has a generation; only the newest reports back, so a result for a
// schedule that was edited, undone or replaced meanwhile is dropped. Jobs run one at a time on
// a one-thread pool: a job may use the analysis cache it is given without locks, as long as
// nobody else touches that cache until isCacheInUse() is false again (see idle()).

#include "schedule/Analysis.h"
#include "schedule/Schedule.h"
#include "schedule/Strategies.h"
#include "schedule/Validate.h"
#include "target/Target.h"

#include <QObject>
#include <QThreadPool>
#include <atomic>
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
    // Waits for the running job (strategies cannot be interrupted); its result is dropped.
    ~ScheduleWorker() override;

    // Starts `job` and returns its generation; a job still running or queued is superseded
    // (a queued one is skipped, a running one's result dropped).
    std::uint64_t start(ScheduleJob job);
    // Drops the result of the running job.
    void cancel();
    // True from start() until the newest job has reported (or was cancelled).
    bool isRunning() const { return m_running; }
    // Waits until no job runs (superseded ones included) and delivers what they reported:
    // after it, a job that was going to report has. For tests proving a stale one is quiet.
    void drain();
    // True while any job, superseded ones included, may still be using its cache.
    bool isCacheInUse() const { return m_inFlight > 0; }

    // Runs `job` on the calling thread (tests, and edits that must be checked at once).
    static ScheduleJobResult run(const ScheduleJob& job);

  signals:
    // Only for the newest job.
    void finished(const strata::gui::ScheduleJobResult& result);
    // No job uses a cache any more.
    void idle();

  private:
    std::shared_ptr<std::atomic<std::uint64_t>> m_generation;
    int m_inFlight = 0;
    bool m_running = false;
    QThreadPool m_pool;
};

} // namespace strata::gui
