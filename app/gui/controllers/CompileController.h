#pragma once
// Compiling from the window: the Compile (F7, Ctrl+B) and Cancel actions, the progress strip
// for the status bar, and the compile shown in the Program and Pipeline tabs. A compile runs
// in the background (CompileJob) on the document's current revision; a result is shown only if
// that revision is still current (ScheduleDocument::isCurrent: an undo back to it counts), else
// it is dropped as stale. Edits do not recompile (that can take seconds); the tabs say when
// they are out of date. A run (Run on Host) compiles too: its program is shown when the tab has
// no compile of that revision.

#include "jobs/CompileJob.h"
#include "runs/EmulationRun.h"
#include "views/program/CompiledProgram.h"

#include <QObject>

class QAction;
class QLabel;
class QProgressBar;
class QToolButton;
class QWidget;

namespace strata::views::pipeline {
class PipelineView;
}
namespace strata::views::program {
class ProgramView;
}

namespace strata::gui {

class Activity;
class ScheduleDocument;

class CompileController : public QObject {
    Q_OBJECT

  public:
    // `window` parents the actions (window-wide shortcuts) and the progress strip.
    CompileController(ScheduleDocument* document, views::program::ProgramView* program,
                      views::pipeline::PipelineView* pipeline, QWidget* window);

    QAction* compileAction() const { return m_compile; }
    QAction* cancelAction() const { return m_cancel; }
    // Label, progress bar and cancel button; shown while compiling.
    QWidget* progressWidget() const { return m_progress; }

    bool isCompiling() const { return m_job->isRunning(); }
    // The compile on screen (invalid before the first).
    const views::program::CompiledProgram& compiled() const { return m_compiled; }
    // The revision compiled() is of (null before the first).
    const RevisionPtr& compiledRevision() const { return m_compiledRevision; }
    // True when the compile on screen is of another schedule than the document's.
    bool isStale() const;

    // What it reports (busy, status, diagnostics); the window shows it (ActivityBoard).
    Activity* activity() const { return m_activity; }

  public slots:
    // Compiles the document's current schedule in the background; a running compile is
    // superseded.
    void compile();
    void cancel();
    // Shows `run`'s program in the Program tab when it is of the current revision and the tab
    // shows no compile of it (the Pipeline tab keeps asking for a compile: a run keeps no
    // pass dumps).
    void showRunProgram(std::shared_ptr<const strata::gui::EmulationRun> run);

  signals:
    // A compile result is on screen.
    void programShown();
    void busyChanged(bool busy);

  private:
    void onRevisionChanged();
    void onProgress(int step, int steps, const QString& name);
    void onFinished(const CompileOutcome& outcome);
    void setRunning(bool running);
    void updateStale();

    ScheduleDocument* m_document;
    views::program::ProgramView* m_program;
    views::pipeline::PipelineView* m_pipeline;
    CompileJob* m_job = nullptr;
    RevisionPtr m_running; // what the running job compiles
    views::program::CompiledProgram m_compiled;
    RevisionPtr m_compiledRevision;

    QAction* m_compile = nullptr;
    QAction* m_cancel = nullptr;
    QWidget* m_progress = nullptr;
    QLabel* m_progressLabel = nullptr;
    QProgressBar* m_progressBar = nullptr;
    Activity* m_activity = nullptr;
};

} // namespace strata::gui
