#pragma once
// Imports ONNX models off the UI thread, on a JobLane: every load gets a generation and only the
// newest reports back, so opening B while A is still importing shows B, never a late A.

#include "jobs/JobRunner.h"
#include "model/OnnxImporter.h"

#include <QObject>
#include <QString>
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

    // Starts importing `path` in the background and returns the load's generation. Supersedes
    // any load still running: that one's result will be dropped.
    std::uint64_t load(const QString& path, const model::ImportOptions& options = {});

    // True from load() until the newest load has reported.
    bool isLoading() const { return m_jobs.isRunning(); }
    std::uint64_t generation() const { return m_jobs.generation(); }

  signals:
    void started(std::uint64_t generation, const QString& path);
    // Only for the newest load; superseded loads never report.
    void finished(const strata::gui::LoadResult& result);

  private:
    JobLane m_jobs{this};
};

} // namespace strata::gui
