#pragma once
// The one way the app runs work off the UI thread (hotspot's JobTracker idea). A background job
// is a plain function `Outcome(const Proceed&)` started on a JobLane, which its owner keeps; every
// lane runs on the JobRunner's one shared pool.
//
// A lane runs one job at a time and the newest start wins: every start gets a generation, and a
// newer start or cancel() makes the older job's `proceed(stage)` say no, so it stops at its next
// step; a start made while an older job still runs waits for it (only the newest waiting start
// is kept, so a burst of edits coalesces). Progress and the outcome cross back to the owner's
// thread queued and reach it only while their generation is still the newest and the owner lives.
//
// The runner knows whether any lane's newest job has not delivered yet (isBusy, busyChanged), the
// window's one busy state, and drain() waits until every job, stale ones included, has ended and
// delivered (tests, the headless runner).

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

namespace strata::gui {

// Asked by a job before each step; false once the job is cancelled or superseded. `stage` names
// the step for progress ("compile", "emulate"…); the owner hears of it once per change.
using Proceed = std::function<bool(const QString& stage)>;

class JobRunner : public QObject {
    Q_OBJECT

  public:
    // The process's runner, made on first use (from the UI thread).
    static JobRunner& instance();

    // Some lane's newest job has not delivered its outcome yet.
    bool isBusy() const { return m_running > 0; }
    // Waits until no job runs or waits (stale ones included) and every outcome and progress
    // report has been delivered; outcomes that start new jobs are waited for too.
    void drain();
    QThreadPool& pool() { return m_pool; }

    // Runs `work()` as a job of its own, never superseded (independent jobs, e.g. importing
    // several trace files at once); `onFinished(outcome)` runs on `owner`'s thread if it lives.
    template <class Outcome>
    void runOnce(QObject* owner, std::function<Outcome()> work,
                 std::function<void(Outcome)> onFinished) {
        runOnceErased(owner,
                      [work = std::move(work),
                       onFinished = std::move(onFinished)]() -> std::function<void()> {
                          auto outcome = std::make_shared<Outcome>(work());
                          return [onFinished, outcome] { onFinished(std::move(*outcome)); };
                      });
    }

  signals:
    void busyChanged(bool busy);

  private:
    friend class JobLane;
    friend class BusyMark;
    JobRunner();
    void runningChanged(int delta);
    void runOnceErased(QObject* owner, std::function<std::function<void()>()> work);

    int m_running = 0;  // lanes whose newest job has not delivered
    int m_inFlight = 0; // jobs executing or waiting, stale ones included
    QThreadPool m_pool;
};

// Work the app waits for outside the pool (the layout helper process) counts as busy too.
class BusyMark {
  public:
    BusyMark() = default;
    ~BusyMark() { set(false); }
    BusyMark(const BusyMark&) = delete;
    BusyMark& operator=(const BusyMark&) = delete;

    void set(bool busy);
    bool isSet() const { return m_busy; }

  private:
    bool m_busy = false;
};

class JobLane {
  public:
    // Outcomes and progress are delivered on `owner`'s thread while it lives.
    explicit JobLane(QObject* owner);
    // Cancels, then waits for the executing job (its work may use the owner's members).
    ~JobLane();
    JobLane(const JobLane&) = delete;
    JobLane& operator=(const JobLane&) = delete;

    // Starts `work(proceed)` under a new generation and returns it. `onFinished(outcome)` runs on
    // the owner's thread when the work returns, `onProgress(stage)` when the stage changes, both
    // only while the generation is the newest.
    template <class Outcome>
    std::uint64_t start(std::function<Outcome(const Proceed&)> work,
                        std::function<void(Outcome)> onFinished,
                        std::function<void(const QString&)> onProgress = {}) {
        return startErased(
            [work = std::move(work),
             onFinished = std::move(onFinished)](const Proceed& proceed) -> std::function<void()> {
                auto outcome = std::make_shared<Outcome>(work(proceed));
                return [onFinished, outcome] { onFinished(std::move(*outcome)); };
            },
            std::move(onProgress));
    }

    // Drops the newest job's outcome and lets it stop at its next step.
    void cancel();
    // The newest job has not delivered yet (and was not cancelled).
    bool isRunning() const;
    // The newest generation started (0 before the first start).
    std::uint64_t generation() const;
    // No job of this lane executes or waits, stale ones included (their work may still use
    // what it was given).
    bool isIdle() const;
    // Called on the owner's thread whenever the lane's last job has ended and none waits.
    void setIdleHandler(std::function<void()> onIdle);

  private:
    // The work returns what to run on the owner's thread with its outcome.
    using ErasedWork = std::function<std::function<void()>(const Proceed&)>;
    using Progress = std::function<void(const QString&)>;
    struct State;

    std::uint64_t startErased(ErasedWork work, Progress onProgress);
    static void launch(const std::shared_ptr<State>& state);
    // On the owner's thread, once the job of generation `mine` has returned.
    static void jobEnded(const std::shared_ptr<State>& state, std::uint64_t mine,
                         const std::function<void()>& deliver);
    static void setRunning(State& state, bool running);
    static void addInFlight(int delta);

    std::shared_ptr<State> m_state;
};

} // namespace strata::gui
