#include "jobs/JobRunner.h"

#include <QCoreApplication>
#include <QFuture>
#include <QMetaObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>

namespace strata::gui {

namespace {

// Each lane runs one job at a time, so the lanes bound the threads in use; this many lets a long
// job (a search, a host run, a layout waiting for its helper) never hold up a prediction.
constexpr int kPoolThreads = 16;

} // namespace

JobRunner::JobRunner() {
    m_pool.setMaxThreadCount(kPoolThreads);
    m_pool.setObjectName(QStringLiteral("JobRunner"));
}

JobRunner& JobRunner::instance() {
    static JobRunner runner;
    return runner;
}

void JobRunner::runningChanged(int delta) {
    const bool was = isBusy();
    m_running += delta;
    if (isBusy() != was)
        emit busyChanged(isBusy());
}

void JobRunner::drain() {
    // Outcomes travel as posted events, and delivering one may start the next job.
    for (;;) {
        m_pool.waitForDone();
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
        if (m_inFlight == 0 && m_pool.activeThreadCount() == 0)
            return;
    }
}

void JobRunner::runOnceErased(QObject* owner, std::function<std::function<void()>()> work) {
    ++m_inFlight;
    runningChanged(1);
    // Delivered through the runner, which outlives every owner, so the counts always settle.
    (void)QtConcurrent::run(&m_pool,
                            [this, owner = QPointer<QObject>(owner), work = std::move(work)] {
                                std::function<void()> deliver;
                                try {
                                    deliver = work();
                                } catch (const std::exception&) {
                                    deliver = nullptr;
                                }
                                QMetaObject::invokeMethod(
                                    this,
                                    [this, owner, deliver] {
                                        --m_inFlight;
                                        runningChanged(-1);
                                        if (owner && deliver)
                                            deliver();
                                    },
                                    Qt::QueuedConnection);
                            });
}

void BusyMark::set(bool busy) {
    if (busy == m_busy)
        return;
    m_busy = busy;
    JobRunner::instance().runningChanged(busy ? 1 : -1);
}

// Everything but the generation is touched on the owner's thread only.
struct JobLane::State {
    struct Waiting {
        std::uint64_t generation = 0;
        ErasedWork work;
        Progress onProgress;
    };

    QObject* owner = nullptr;
    std::atomic<std::uint64_t> generation{0};
    bool running = false;   // the newest job has not delivered
    bool executing = false; // a job is on the pool
    bool closed = false;    // the lane is gone
    std::optional<Waiting> waiting;
    QFuture<void> executed;
    std::function<void()> onIdle;
};

void JobLane::setRunning(State& state, bool running) {
    if (running != state.running) {
        state.running = running;
        JobRunner::instance().runningChanged(running ? 1 : -1);
    }
}

void JobLane::addInFlight(int delta) {
    JobRunner::instance().m_inFlight += delta;
}

void JobLane::jobEnded(const std::shared_ptr<State>& state, std::uint64_t mine,
                       const std::function<void()>& deliver) {
    if (state->closed)
        return; // the lane's destructor accounted for it
    state->executing = false;
    addInFlight(-1);
    if (state->generation.load() == mine && state->running) {
        setRunning(*state, false);
        if (deliver)
            deliver(); // may start the lane's next job
    }
    if (!state->closed && state->waiting && !state->executing)
        launch(state);
    if (!state->closed && !state->executing && !state->waiting && state->onIdle)
        state->onIdle();
}

void JobLane::launch(const std::shared_ptr<State>& state) {
    State::Waiting job = std::move(*state->waiting);
    state->waiting.reset();
    state->executing = true;
    const std::uint64_t mine = job.generation;
    QObject* owner = state->owner;                // outlives the job: ~JobLane waits for it
    auto lastStage = std::make_shared<QString>(); // the worker's own: progress on a change
    Proceed proceed = [state, mine, lastStage, owner,
                       onProgress = std::move(job.onProgress)](const QString& stage) {
        if (state->generation.load() != mine)
            return false;
        if (onProgress && stage != *lastStage) {
            *lastStage = stage;
            QMetaObject::invokeMethod(
                owner,
                [state, mine, stage, onProgress] {
                    if (!state->closed && state->generation.load() == mine)
                        onProgress(stage);
                },
                Qt::QueuedConnection);
        }
        return true;
    };
    state->executed = QtConcurrent::run(
        &JobRunner::instance().pool(), [state, mine, owner, work = std::move(job.work), proceed] {
            std::function<void()> deliver;
            // Jobs report bad input as outcomes; anything else must not lose the lane.
            try {
                deliver = work(proceed);
            } catch (const std::exception&) {
                deliver = nullptr;
            }
            QMetaObject::invokeMethod(
                owner, [state, mine, deliver] { jobEnded(state, mine, deliver); },
                Qt::QueuedConnection);
        });
}

JobLane::JobLane(QObject* owner) : m_state(std::make_shared<State>()) {
    m_state->owner = owner;
}

JobLane::~JobLane() {
    cancel();
    m_state->closed = true;
    m_state->executed.waitForFinished();
    if (m_state->executing) {
        m_state->executing = false;
        addInFlight(-1);
    }
}

std::uint64_t JobLane::startErased(ErasedWork work, Progress onProgress) {
    const std::uint64_t mine = ++m_state->generation;
    if (!m_state->waiting)
        addInFlight(1);
    m_state->waiting = State::Waiting{mine, std::move(work), std::move(onProgress)};
    setRunning(*m_state, true);
    if (!m_state->executing)
        launch(m_state);
    return mine;
}

void JobLane::cancel() {
    ++m_state->generation;
    if (m_state->waiting) {
        m_state->waiting.reset();
        addInFlight(-1);
    }
    setRunning(*m_state, false);
}

bool JobLane::isRunning() const {
    return m_state->running;
}

std::uint64_t JobLane::generation() const {
    return m_state->generation.load();
}

bool JobLane::isIdle() const {
    return !m_state->executing && !m_state->waiting;
}

void JobLane::setIdleHandler(std::function<void()> onIdle) {
    m_state->onIdle = std::move(onIdle);
}

} // namespace strata::gui
