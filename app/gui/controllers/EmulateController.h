#pragma once
// The prediction beside the schedule: after every edit (and on Emulate, F5) the document's
// current schedule is compiled and emulated in the background (EmulateJob), and the predicted
// time per block goes into the block badges and the schedule table's Predicted column, the
// total into the status bar. Bursts of edits coalesce: only the latest revision is emulated to
// the end, and a result is shown only if the document still has that schedule (same graph,
// target and schedule data: an undo back to it counts), else it is dropped as stale.

#include "jobs/EmulateJob.h"
#include "runs/EmulationRun.h"

#include <QElapsedTimer>
#include <QObject>
#include <memory>
#include <unordered_map>

class QAction;
class QLabel;
class QTimer;
class QWidget;

namespace strata::views::schedule {
class ScheduleTableModel;
}

namespace strata::gui {

class Activity;
class GraphTab;
class ScheduleDocument;

class EmulateController : public QObject {
    Q_OBJECT

  public:
    // `window` parents the actions (window-wide shortcuts) and the status widgets.
    EmulateController(ScheduleDocument* document, GraphTab* graph,
                      views::schedule::ScheduleTableModel* table, QWidget* window);

    QAction* emulateAction() const { return m_emulate; }
    QAction* cancelAction() const { return m_cancel; }
    // Checkable: predict after each edit (on by default).
    QAction* autoAction() const { return m_auto; }
    // Label, progress bar and cancel button; shown while a prediction takes long.
    QWidget* progressWidget() const { return m_progress; }
    // The predicted total, for the status bar.
    QLabel* totalLabel() const { return m_total; }

    bool isEmulating() const { return m_job->isRunning(); }
    // The last emulation shown (null before the first); it may be of an older schedule than the
    // document's (see isCurrent()).
    const std::shared_ptr<const EmulationRun>& last() const { return m_last; }
    // True when last() is of the document's current revision (ScheduleDocument::isCurrent).
    bool isCurrent() const;
    // Predicted seconds per block id of last(); empty when it is not current.
    std::unordered_map<int, double> predictions() const;
    // DRAM bytes per block id of last() (the trace's transfers to or from main memory).
    const std::unordered_map<int, std::uint64_t>& dramBytes() const { return m_dram; }
    // Milliseconds from the last edit to its prediction in the badges and table; -1 before.
    qint64 lastLatencyMs() const { return m_latencyMs; }

    // What it reports (busy, status, diagnostics); the window shows it (ActivityBoard).
    Activity* activity() const { return m_activity; }

  public slots:
    // Predicts the document's current schedule in the background; a running one is superseded.
    void emulate();
    void cancel();

  signals:
    // A prediction of the document's current schedule is shown (badges, table, total).
    void emulated(std::shared_ptr<const strata::gui::EmulationRun> run);
    // The same moment, with how long after the edit it came.
    void predictionsShown(qint64 latencyMs);
    void busyChanged(bool busy);

  private:
    void onRevisionChanged();
    void onFinished(const EmulateOutcome& outcome);
    // Puts last()'s predictions into the table and badges when it is current.
    void applyPredictions();
    void setRunning(bool running);
    void updateTotal();

    ScheduleDocument* m_document;
    GraphTab* m_graph;
    views::schedule::ScheduleTableModel* m_table;
    EmulateJob* m_job = nullptr;
    RevisionPtr m_running; // what the running job predicts
    std::shared_ptr<const EmulationRun> m_last;
    std::unordered_map<int, double> m_seconds; // per block of last()
    std::unordered_map<int, std::uint64_t> m_dram;
    double m_totalSeconds = 0;
    QString m_failure; // why the current schedule has no prediction
    QElapsedTimer m_sinceEdit;
    qint64 m_latencyMs = -1;
    RevisionPtr m_edited; // the revision m_sinceEdit times

    QTimer* m_coalesce = nullptr;     // a burst (edits superseding a running prediction) gives one
    QTimer* m_showProgress = nullptr; // the progress strip only for slow predictions
    QAction* m_emulate = nullptr;
    QAction* m_cancel = nullptr;
    QAction* m_auto = nullptr;
    QWidget* m_progress = nullptr;
    QLabel* m_progressLabel = nullptr;
    QLabel* m_total = nullptr;
    Activity* m_activity = nullptr;
};

} // namespace strata::gui
