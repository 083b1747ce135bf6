#pragma once
// Compiling from the window: the Compile (F7, Ctrl+B) and Cancel actions, the progress strip
// for the status bar, and the compile shown in the Program and Pipeline tabs. A compile runs
// in the background (CompileJob) on the document's current schedule and target; a result is
// shown only if the document still has that schedule (same graph, target and schedule
// revision's data: an undo back to it counts), else it is dropped as stale. Edits do not
// recompile (that can take seconds); the tabs say when they are out of date.

#include "jobs/CompileJob.h"
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
    // True when the compile on screen is of another schedule than the document's.
    bool isStale() const;

  public slots:
    // Compiles the document's current schedule in the background; a running compile is
    // superseded.
    void compile();
    void cancel();

  signals:
    // A compile result is on screen.
    void programShown();
    void busyChanged(bool busy);
    void statusMessage(const QString& text, int timeoutMs);
    // What the last compile reported: its errors, or its warnings and a closing summary.
    void diagnosticsReported(const std::vector<strata::Diagnostic>& diagnostics,
                             const QString& summary);

  private:
    void onScheduleChanged();
    void onProgress(int step, int steps, const QString& name);
    void onFinished(const CompileOutcome& outcome);
    void setRunning(bool running);
    void updateStale();

    ScheduleDocument* m_document;
    views::program::ProgramView* m_program;
    views::pipeline::PipelineView* m_pipeline;
    CompileJob* m_job = nullptr;
    CompileRequest m_running; // what the running job compiles
    views::program::CompiledProgram m_compiled;
    std::shared_ptr<const schedule::Schedule> m_compiledSchedule;
    std::shared_ptr<const target::Target> m_compiledTarget;

    QAction* m_compile = nullptr;
    QAction* m_cancel = nullptr;
    QWidget* m_progress = nullptr;
    QLabel* m_progressLabel = nullptr;
    QProgressBar* m_progressBar = nullptr;
};

} // namespace strata::gui
