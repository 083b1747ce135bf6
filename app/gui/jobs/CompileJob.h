#pragma once
// Compiles a schedule off the UI thread, one job at a time, with progress per pass and cancel
// (hotspot's JobTracker idea, as ScheduleWorker does for checks). Every job has a generation;
// only the newest reports, and a job stops at the next pass boundary once it is no longer the
// newest (cancelled or superseded), its result dropped. Whether a result still matches the
// schedule on screen (its revision) is the caller's decision.

#include "base/Diagnostic.h"
#include "compiler/Pipeline.h"

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace strata::gui {

struct CompileRequest {
    std::uint64_t revision = 0; // the schedule document's revision being compiled
    std::shared_ptr<const ir::Graph> graph;
    std::shared_ptr<const target::Target> target;
    QString targetName;
    std::shared_ptr<const schedule::Schedule> schedule;
};

struct CompileOutcome {
    std::uint64_t generation = 0;
    CompileRequest request;
    std::shared_ptr<const compiler::CompileResult> result;
    std::vector<Diagnostic> failure; // why there is no result
    bool cancelled = false;
    qint64 elapsedMs = 0;

    bool ok() const { return result != nullptr; }
};

class CompileJob : public QObject {
    Q_OBJECT

  public:
    explicit CompileJob(QObject* parent = nullptr);
    // Stops the running job at its next pass and waits for it; its result is dropped.
    ~CompileJob() override;

    // Starts compiling `request` and returns the job's generation; a running job is cancelled.
    std::uint64_t start(CompileRequest request);
    // Drops the running job's result and lets it stop at the next pass.
    void cancel();
    bool isRunning() const { return m_running; }
    // Waits until no job runs (cancelled and superseded ones included) and delivers what they
    // reported: after it, a job that was going to report has. For tests proving one is quiet.
    void drain();
    // The steps progress() counts: the schedule check, then each pass.
    static int stepCount();

    // Compiles `request` on the calling thread. `proceed(step, name)` is asked before each
    // step (the check is step 0, named "check"); returning false stops with `cancelled` set.
    // Every dump is recorded (the Pipeline tab shows them).
    static CompileOutcome
    run(const CompileRequest& request,
        const std::function<bool(int step, const std::string& name)>& proceed);

  signals:
    // The newest job is about to run step `step` of stepCount(), called `name`.
    void progress(int step, int steps, const QString& name);
    // Only for the newest job, and not after cancel().
    void finished(const strata::gui::CompileOutcome& outcome);

  private:
    std::shared_ptr<std::atomic<std::uint64_t>> m_generation;
    bool m_running = false;
    QThreadPool m_pool;
};

} // namespace strata::gui
