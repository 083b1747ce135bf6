#include "SearchJob.h"

#include <QFutureWatcher>
#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>

namespace strata::gui {

SearchJob::SearchJob(QObject* parent) : QObject(parent) {
    // The search spreads its candidates over its own workers; this thread only drives it.
    m_pool.setMaxThreadCount(1);
    m_pool.setObjectName(QStringLiteral("SearchJob"));
}

SearchJob::~SearchJob() {
    ++*m_generation;
    m_stop.request_stop();
    m_pool.waitForDone();
}

void SearchJob::start(std::shared_ptr<const ir::Graph> graph,
                      std::shared_ptr<const target::Target> target, search::SearchOptions options) {
    m_stop.request_stop(); // an older search ends; its result is dropped by the generation
    m_stop = std::stop_source();
    const std::uint64_t mine = ++*m_generation;
    m_running = true;
    auto generation = m_generation;
    // `this` outlives the search (the destructor waits for it), and a queued call whose context
    // object is gone is dropped.
    auto report = [this, generation, mine](const search::SearchProgress& p) {
        if (generation->load() != mine)
            return;
        QMetaObject::invokeMethod(
            this,
            [this, generation, mine, p] {
                if (generation->load() == mine)
                    emit progress(p);
            },
            Qt::QueuedConnection);
    };
    using Result = std::pair<std::shared_ptr<const search::SearchResult>, QString>;
    auto* watcher = new QFutureWatcher<Result>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, mine] {
        watcher->deleteLater();
        if (generation->load() != mine)
            return;
        m_running = false;
        const Result result = watcher->result();
        emit finished(result.first, result.second);
    });
    watcher->setFuture(QtConcurrent::run(
        &m_pool,
        [graph = std::move(graph), target = std::move(target), options = std::move(options),
         token = m_stop.get_token(), report]() -> Result {
            auto result = std::make_shared<search::SearchResult>();
            // Nothing may reach the event loop: a failure is reported as text.
            try {
                *result = search::searchSchedules(*graph, *target, options, token, report);
            } catch (const std::exception& e) {
                return {result, QString::fromUtf8(e.what())};
            }
            return {result, QString()};
        }));
}

void SearchJob::cancel() {
    m_stop.request_stop();
}

} // namespace strata::gui
