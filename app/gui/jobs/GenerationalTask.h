#pragma once
// The background-job pattern of the window's jobs: every start gets a generation; the work runs
// on a pool and asks `proceed(stage)` before each step, which says no once a newer start or a
// cancel has bumped the generation; progress and the result cross back to the UI thread queued
// and reach the owner only while their generation is still the newest.

#include <QFutureWatcher>
#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <atomic>
#include <functional>
#include <memory>

namespace strata::gui {

using Proceed = std::function<bool(const QString& stage)>;

// Starts `work(proceed)` on `pool` under a new generation of `generation` and returns it.
// `onProgress(stage)` runs on `owner`'s thread when the stage changes; `onFinished(outcome)`
// when the work ends, both only while the generation is the newest.
template <class Outcome>
std::uint64_t startGenerational(QObject* owner, QThreadPool& pool,
                                const std::shared_ptr<std::atomic<std::uint64_t>>& generation,
                                std::function<Outcome(const Proceed&)> work,
                                std::function<void(const QString&)> onProgress,
                                std::function<void(Outcome)> onFinished) {
    const std::uint64_t mine = ++*generation;
    auto lastStage = std::make_shared<QString>(); // the worker's own: progress only on a change
    Proceed proceed = [owner = QPointer<QObject>(owner), generation, mine, lastStage,
                       onProgress](const QString& stage) {
        if (generation->load() != mine)
            return false;
        if (stage != *lastStage) {
            *lastStage = stage;
            if (owner)
                QMetaObject::invokeMethod(
                    owner.data(),
                    [generation, mine, stage, onProgress] {
                        if (generation->load() == mine)
                            onProgress(stage);
                    },
                    Qt::QueuedConnection);
        }
        return true;
    };
    auto* watcher = new QFutureWatcher<Outcome>(owner);
    QObject::connect(watcher, &QFutureWatcherBase::finished, owner,
                     [watcher, generation, mine, onFinished] {
                         watcher->deleteLater();
                         if (generation->load() == mine)
                             onFinished(watcher->result());
                     });
    watcher->setFuture(
        QtConcurrent::run(&pool, [work = std::move(work), proceed] { return work(proceed); }));
    return mine;
}

} // namespace strata::gui
