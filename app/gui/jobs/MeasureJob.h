#pragma once
// Runs a schedule on this computer off the UI thread: compiles, emulates and runs it through one
// flow (flow::measure: the program checked once, the prediction paired with the run), the program
// run a few times with the host runtime and the median run's timeline kept. run() is the job, on a
// JobLane: one job at a time, a newer job supersedes an older one, whose result is dropped. A run
// in progress finishes its repeat (the runtime has no stop), but cancel() drops its result and
// skips the remaining repeats' successors.

#include "jobs/CompileJob.h"
#include "jobs/JobRunner.h"
#include "runs/MeasuredRun.h"

#include <QObject>
#include <functional>
#include <memory>
#include <vector>

namespace strata::gui {

struct MeasureOutcome {
    std::uint64_t generation = 0;
    RevisionPtr revision; // what was run
    std::shared_ptr<const MeasuredRun> run;
    std::vector<Diagnostic> failure; // why there is no run
    bool cancelled = false;

    bool ok() const { return run != nullptr; }
};

class MeasureJob : public QObject {
    Q_OBJECT

  public:
    static constexpr int kRepeats = 3;

    explicit MeasureJob(QObject* parent = nullptr);

    std::uint64_t start(RevisionPtr revision);
    void cancel();
    bool isRunning() const { return m_jobs.isRunning(); }

    // Compiles, emulates and runs `revision` on the calling thread; `proceed(stage)` is asked
    // before each step ("compile", "emulate", "run"); false stops with `cancelled` set.
    static MeasureOutcome run(const RevisionPtr& revision,
                              const std::function<bool(const QString& stage)>& proceed);

  signals:
    void progress(const QString& stage);
    // Only for the newest job, and not after cancel().
    void finished(const strata::gui::MeasureOutcome& outcome);

  private:
    JobLane m_jobs{this};
};

} // namespace strata::gui
