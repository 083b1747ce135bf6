#pragma once
// Computes graph layouts without ever blocking or endangering the UI (hotspot's JobTracker
// idea, as ModelLoader does for imports): every layout has a generation id and only the
// newest reports back; starting a new one or cancel() kills the one running.
//
// A layout runs in three stages:
//   1. prepare (worker thread): pick what to lay out (the overview of a graph too big for a
//      full layout), measure labels, build and encode the request;
//   2. lay out (the strata-layout helper process, core/layout/LayoutProtocol.h): killed when it
//      takes longer than the timeout or is superseded, and a crash there is only a diagnostic;
//   3. read back (worker thread): decode and check the reply against the request.
// A full layout that fails, times out or crashes falls back to the overview (when allowed).

#include "ir/Graph.h"
#include "jobs/JobRunner.h"
#include "layout/GraphLayout.h"
#include "layout/LayoutInput.h"
#include "layout/LayoutRequest.h"

#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QString>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

class QTimer;

namespace strata::gui {

struct LayoutJob {
    std::shared_ptr<const ir::Graph> graph;
    layout::LayoutInput input;
    layout::TextMetrics metrics;
    // Lay out the overview instead when the full graph has more nodes than this.
    std::size_t overviewAbove = 1500;
    // Hard bounds on what reaches Graphviz (an expanded block that does not fit is refused).
    layout::LayoutLimits limits;
    // Fall back to the overview when the layout fails or takes too long.
    bool allowOverview = true;
};

struct LayoutOutcome {
    std::uint64_t generation = 0;
    std::shared_ptr<const ir::Graph> graph;
    layout::LayoutInput input;                         // what was laid out
    std::shared_ptr<const layout::GraphLayout> layout; // null when there is none
    std::vector<Diagnostic> diagnostics;               // why not, or what to know about it
    bool overview = false;                             // the overview, not the full graph
    qint64 elapsedMs = 0;

    bool ok() const { return layout != nullptr; }
};

class LayoutRunner : public QObject {
    Q_OBJECT

  public:
    explicit LayoutRunner(QObject* parent = nullptr);
    // Kills a running helper and waits for a preparing worker; their results are dropped.
    ~LayoutRunner() override;

    // Starts laying out `job` and returns its generation; supersedes (kills) the running one.
    std::uint64_t start(LayoutJob job);
    // Stops the running layout; it never reports.
    void cancel();
    bool isRunning() const { return m_running.isSet(); }
    std::uint64_t generation() const { return m_generation->load(); }

    // The helper executable. Default: STRATA_LAYOUT_HELPER from the environment, else
    // strata-layout next to this program, else the one in the build tree.
    void setHelperPath(const QString& path) { m_helperPath = path; }
    QString helperPath() const { return m_helperPath; }
    static QString defaultHelperPath();
    // How long the helper may take before it is killed. Default 30 s.
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }
    int timeoutMs() const { return m_timeoutMs; }

  signals:
    void started(std::uint64_t generation);
    // A stage's description for the UI ("Laying out 1,842 nodes…").
    void progress(std::uint64_t generation, const QString& text);
    // Only for the newest layout; superseded and cancelled ones never report.
    void finished(const strata::gui::LayoutOutcome& outcome);

  private:
    struct Prepared;
    struct Run; // the state of the running layout, shared with its callbacks

    // Stage 1, on a worker: what to lay out, and the request for it. Never throws.
    static std::shared_ptr<const Prepared> prepareRequest(const LayoutJob& job, bool forceOverview);
    void prepare(std::shared_ptr<Run> run, bool overview);
    void onPrepared(std::shared_ptr<Run> run, std::shared_ptr<const Prepared> prepared);
    void startHelper(std::shared_ptr<Run> run);
    void onHelperDone(std::shared_ptr<Run> run, const QString& failure);
    void readBack(std::shared_ptr<Run> run, QByteArray reply);
    void retryAsOverview(std::shared_ptr<Run> run, std::vector<Diagnostic> why);
    void finish(std::shared_ptr<Run> run, LayoutOutcome outcome);
    void stopProcess();
    bool isCurrent(const std::shared_ptr<Run>& run) const;

    std::shared_ptr<std::atomic<std::uint64_t>> m_generation;
    std::shared_ptr<Run> m_run;
    QPointer<QProcess> m_process;
    QTimer* m_timer = nullptr;
    QString m_helperPath;
    int m_timeoutMs = 30'000;
    BusyMark m_running;   // from start() to finished() or cancel(), the helper's time included
    JobLane m_jobs{this}; // prepare and read back
};

} // namespace strata::gui
