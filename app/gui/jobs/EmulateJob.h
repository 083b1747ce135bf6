#pragma once
// Compiles and emulates a schedule off the UI thread to predict its time: what the window does
// after every edit: run() is the job, on a JobLane (one job at a time, only the newest
// reports). A burst of edits coalesces: a job that is no longer the newest stops at its next
// compiler pass (a waiting one never starts), so only the latest schedule is emulated to the
// end. Whether a result still matches the schedule on screen is the caller's decision.

#include "flow/Flow.h"
#include "jobs/CompileCacheSlot.h"
#include "jobs/CompileJob.h"
#include "jobs/JobRunner.h"
#include "runs/EmulationRun.h"
#include "trace/TraceSummary.h"

#include <QObject>
#include <functional>
#include <memory>
#include <vector>

namespace strata::gui {

struct EmulateOutcome {
    std::uint64_t generation = 0;
    RevisionPtr revision; // what was predicted
    std::shared_ptr<const EmulationRun> run;
    trace::TraceSummary summary;     // of run->trace
    std::vector<Diagnostic> failure; // why there is no run
    bool cancelled = false;
    qint64 compileMs = 0;
    qint64 emulateMs = 0;

    bool ok() const { return run != nullptr; }
};

class EmulateJob : public QObject {
    Q_OBJECT

  public:
    explicit EmulateJob(QObject* parent = nullptr);

    // Starts predicting `revision` and returns the job's generation; a running job is superseded.
    std::uint64_t start(RevisionPtr revision);
    void cancel();
    bool isRunning() const { return m_jobs.isRunning(); }

    // Compiles (no dumps) and emulates `revision` on the calling thread; `proceed(stage)` is
    // asked before each compiler step ("compile") and before emulating ("emulate"); false
    // stops with `cancelled` set. With `cache`, blocks an earlier run compiled are not
    // analysed or tiled again.
    static EmulateOutcome run(const RevisionPtr& revision,
                              const std::function<bool(const QString& stage)>& proceed,
                              CompileCacheSlot* cache = nullptr);

    // flow::Options::proceed asking `proceed` with the stage's name ("compile", "emulate", "run").
    static flow::Proceed proceedByName(const std::function<bool(const QString& stage)>& proceed);
    // The prediction of a flow of `revision` that got through its emulate stage, moved out of it.
    static std::shared_ptr<const EmulationRun> takeEmulation(const RevisionPtr& revision,
                                                             flow::Result& flowed);

  signals:
    // The newest job moved on: "compile" or "emulate".
    void progress(const QString& stage);
    // Only for the newest job, and not after cancel().
    void finished(const strata::gui::EmulateOutcome& outcome);

  private:
    // The jobs' own, one at a time (the lane runs one job at a time).
    std::shared_ptr<CompileCacheSlot> m_cache = std::make_shared<CompileCacheSlot>();
    JobLane m_jobs{this};
};

} // namespace strata::gui
