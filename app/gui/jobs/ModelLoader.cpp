#include "jobs/ModelLoader.h"

#include <QElapsedTimer>
#include <exception>
#include <string>

namespace strata::gui {

namespace {

LoadResult runImport(const QString& path, const model::ImportOptions& options) {
    LoadResult result;
    result.path = path;

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

ModelLoader::ModelLoader(QObject* parent) : QObject(parent) {}

std::uint64_t ModelLoader::load(const QString& path, const model::ImportOptions& options) {
    const std::uint64_t generation = m_jobs.start<LoadResult>(
        [path, options](const Proceed&) { return runImport(path, options); },
        [this](LoadResult result) {
            result.generation = m_jobs.generation();
            emit finished(result);
        });
    emit started(generation, path);
    return generation;
}

} // namespace strata::gui
