#pragma once
// Imports ONNX models off the UI thread (hotspot's JobTracker idea). Every load gets a
// generation id; only the newest load reports back, so opening B while A is still importing
// shows B, never a late A.

#include "model/OnnxImporter.h"

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace strata::gui {

struct LoadResult {
    std::uint64_t generation = 0;
    QString path;
    std::shared_ptr<const ir::Graph> graph; // null when the import failed
    std::vector<Diagnostic> diagnostics;    // warnings on success, errors (and notes) on failure
    qint64 elapsedMs = 0;

    bool ok() const { return graph != nullptr; }
};

class ModelLoader : public QObject {
    Q_OBJECT

  public:
    explicit ModelLoader(QObject* parent = nullptr);
    // Waits for a running import (the importer cannot be interrupted); its result is dropped.
    ~ModelLoader() override;

    // Starts importing `path` in the background and returns the load's generation. Supersedes
    // any load still running: that one's result will be dropped.
    std::uint64_t load(const QString& path, const model::ImportOptions& options = {});

    // True from load() until the newest load has reported.
    bool isLoading() const { return m_loading; }
    std::uint64_t generation() const { return m_generation->load(); }
    // Waits until no import runs (superseded ones included) and delivers what they reported:
    // after it, a load that was going to report has. For tests proving a stale load is quiet.
    void drain();

  signals:
    void started(std::uint64_t generation, const QString& path);
    // Only for the newest load; superseded loads never report.
    void finished(const strata::gui::LoadResult& result);

  private:
    // Shared with the workers so they can see that their load was superseded without touching
    // this object, which may be gone by then.
    std::shared_ptr<std::atomic<std::uint64_t>> m_generation;
    bool m_loading = false;
    QThreadPool m_pool;
};

} // namespace strata::gui
