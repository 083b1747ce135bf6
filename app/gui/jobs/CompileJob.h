#pragma once
// Compiles a schedule off the UI thread with progress per pass and cancel: run() is the job, on
// a JobLane (one job at a time, the newest wins, a job no longer the newest stops at the next
// pass boundary and its result is dropped). Whether a result is still of the current revision
// is the caller's decision (ScheduleDocument::isCurrent).

#include "base/Diagnostic.h"
#include "compiler/Pipeline.h"
#include "document/Revision.h"
#include "jobs/JobRunner.h"

#include <QObject>
#include <QString>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace strata::gui {

struct CompileOutcome {
    std::uint64_t generation = 0;
    RevisionPtr revision; // what was compiled
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

    // Starts compiling `revision` and returns the job's generation; a running job is cancelled.
    std::uint64_t start(RevisionPtr revision);
    // Drops the running job's result and lets it stop at the next pass.
    void cancel();
    bool isRunning() const { return m_jobs.isRunning(); }
    // The steps progress() counts: the schedule check, then each pass.
    static int stepCount();

    // Compiles `revision` on the calling thread. `proceed(step, name)` is asked before each
    // step (the check is step 0, named "check"); returning false stops with `cancelled` set.
    // Every dump is recorded (the Pipeline tab shows them).
    static CompileOutcome
    run(const RevisionPtr& revision,
        const std::function<bool(int step, const std::string& name)>& proceed);

  signals:
    // The newest job is about to run step `step` of stepCount(), called `name`.
    void progress(int step, int steps, const QString& name);
    // Only for the newest job, and not after cancel().
    void finished(const strata::gui::CompileOutcome& outcome);

  private:
    JobLane m_jobs{this};
};

} // namespace strata::gui
