#pragma once
// Run on Host (Ctrl+R): the document's current schedule compiled, emulated and run for real on
// this computer in the background (MeasureJob), so the measured timeline pairs with its
// prediction. Runs need the host target (the runtime says why another target cannot run). A
// result is shown only if the document still has that schedule, else it is dropped as stale.

#include "MeasureJob.h"
#include "MeasuredRun.h"

#include <QObject>
#include <memory>

class QAction;
class QWidget;

namespace strata::gui {

class ScheduleDocument;

class MeasureController : public QObject {
    Q_OBJECT

  public:
    // `window` parents the actions (window-wide shortcuts).
    MeasureController(ScheduleDocument* document, QWidget* window);

    QAction* runAction() const { return m_run; }
    QAction* cancelAction() const { return m_cancel; }
    bool isRunning() const { return m_job->isRunning(); }
    // The last run shown (null before the first); it may be of an older schedule than the
    // document's (see isCurrent()).
    const std::shared_ptr<const MeasuredRun>& last() const { return m_last; }
    bool isCurrent() const;

  public slots:
    void run();
    void cancel();

  signals:
    // A run of the document's current schedule finished: measured and predicted timelines.
    void measured(std::shared_ptr<const strata::gui::MeasuredRun> run);
    void busyChanged(bool busy);
    void statusMessage(const QString& text, int timeoutMs);
    void diagnosticsReported(const std::vector<strata::Diagnostic>& diagnostics, const QString& summary);

  private:
    void onFinished(const MeasureOutcome& outcome);
    void setRunning(bool running);

    ScheduleDocument* m_document;
    MeasureJob* m_job = nullptr;
    CompileRequest m_running;
    CompileRequest m_shown;
    std::shared_ptr<const MeasuredRun> m_last;
    QAction* m_run = nullptr;
    QAction* m_cancel = nullptr;
};

} // namespace strata::gui
