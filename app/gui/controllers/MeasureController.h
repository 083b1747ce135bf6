#pragma once
// Run on Host (Ctrl+R): the document's current schedule compiled, emulated and run for real on
// this computer in the background (MeasureJob), so the measured timeline pairs with its
// prediction. Runs need the host target (the runtime says why another target cannot run). A
// result is shown only if the document still has that schedule, else it is dropped as stale.

#include "jobs/MeasureJob.h"
#include "runs/MeasuredRun.h"
#include "views/schedule/ScheduleTableModel.h"

#include <QObject>
#include <memory>
#include <unordered_map>

class QAction;
class QWidget;

namespace strata::views::schedule {
class ScheduleTableModel;
}

namespace strata::gui {

class Activity;
class ScheduleDocument;

class MeasureController : public QObject {
    Q_OBJECT

  public:
    // `window` parents the actions (window-wide shortcuts).
    MeasureController(ScheduleDocument* document, QWidget* window);

    QAction* runAction() const { return m_run; }
    QAction* cancelAction() const { return m_cancel; }
    bool isRunning() const { return m_job->isRunning(); }
    // The last run shown (null before the first); it may be of an older revision than the
    // document's (see isCurrent()); last()->emulation->revision is the revision run.
    const std::shared_ptr<const MeasuredRun>& last() const { return m_last; }
    // True when last() is of the document's current revision (ScheduleDocument::isCurrent).
    bool isCurrent() const;
    // The schedule table whose Measured and Error columns show the last run while it is current
    // (filled again after each snapshot of the same schedule, empty otherwise).
    void setScheduleTable(views::schedule::ScheduleTableModel* table);
    // Shows a run made earlier (a project's saved traces) as the run of the document's current
    // schedule, as if it had just finished; its emulation's revision must be the current one.
    void restore(std::shared_ptr<const MeasuredRun> run);

    // What it reports (busy, status, diagnostics); the window shows it (ActivityBoard).
    Activity* activity() const { return m_activity; }

  public slots:
    void run();
    void cancel();

  signals:
    // A run of the document's current schedule finished: measured and predicted timelines.
    void measured(std::shared_ptr<const strata::gui::MeasuredRun> run);
    void busyChanged(bool busy);

  private:
    void onFinished(const MeasureOutcome& outcome);
    void setRunning(bool running);
    void show(std::shared_ptr<const MeasuredRun> run);
    // Puts the last run's per-block figures into the table when it is current, else clears them.
    void applyMeasurements();

    ScheduleDocument* m_document;
    MeasureJob* m_job = nullptr;
    RevisionPtr m_running;
    std::shared_ptr<const MeasuredRun> m_last;
    views::schedule::ScheduleTableModel* m_table = nullptr;
    std::unordered_map<int, views::schedule::ScheduleTableModel::BlockMeasurement>
        m_blocks; // last()'s, by block
    QAction* m_run = nullptr;
    QAction* m_cancel = nullptr;
    Activity* m_activity = nullptr;
};

} // namespace strata::gui
