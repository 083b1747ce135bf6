#include "jobs/ModelLoader.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>
#include <string>

namespace strata::gui {

namespace {

LoadResult runImport(std::uint64_t generation, const QString& path,
                     const model::ImportOptions& options,
                     const std::shared_ptr<const std::atomic<std::uint64_t>>& latest) {
    LoadResult result;
    result.generation = generation;
    result.path = path;
    // A load queued behind a newer one would be dropped anyway: skip the work.
    if (latest->load() != generation)
        return result;

    QElapsedTimer timer;
    timer.start();
    // The importer reports bad input as diagnostics and does not throw; anything else (out of
    // memory) must still not escape into the event loop, where QFuture would rethrow it.
    try {
        auto imported = model::importOnnxFile(path.toStdString(), options);
        if (imported) {
            result.graph = std::move(imported->graph);
            result.diagnostics = std::move(imported->warnings);
            if (!result.graph) // an importer bug, but never a crash in the UI
                result.diagnostics.push_back(error("the importer returned no graph"));
        } else {
            result.diagnostics = imported.takeDiagnostics();
        }
    } catch (const std::exception& e) {
        result.graph.reset();
        result.diagnostics = {error(std::string("import failed: ") + e.what())};
    }
    result.elapsedMs = timer.elapsed();
    return result;
}

} // namespace

ModelLoader::ModelLoader(QObject* parent)
    : QObject(parent), m_generation(std::make_shared<std::atomic<std::uint64_t>>(0)) {
    // One import at a time; a superseded queued load is skipped by its generation check.
    m_pool.setMaxThreadCount(1);
    m_pool.setObjectName(QStringLiteral("ModelLoader"));
}

ModelLoader::~ModelLoader() {
    ++*m_generation; // let queued loads return without importing
    m_pool.waitForDone();
}

void ModelLoader::drain() {
    m_pool.waitForDone();
    // The watchers' finished signals are posted events; deliver them now.
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
}

std::uint64_t ModelLoader::load(const QString& path, const model::ImportOptions& options) {
    const std::uint64_t generation = ++*m_generation;
    std::shared_ptr<const std::atomic<std::uint64_t>> latest = m_generation;

    auto* watcher = new QFutureWatcher<LoadResult>(this);
    connect(watcher, &QFutureWatcherBase::finished, this,
            [guard = QPointer<ModelLoader>(this), watcher, generation] {
                watcher->deleteLater();
                if (!guard || generation != guard->m_generation->load())
                    return; // stale
                guard->m_loading = false;
                emit guard->finished(watcher->result());
            });
    m_loading = true;
    emit started(generation, path);
    watcher->setFuture(QtConcurrent::run(&m_pool, runImport, generation, path, options, latest));
    return generation;
}

} // namespace strata::gui
