#pragma once
// Projects in the window (docs/PROJECTS.md): Save (Ctrl+S), Save As (Ctrl+Shift+S) and opening
// a .strata file (from the menu, the command line, a drop or the recent files, all through
// the window's openFile, which hands projects here). A project reopens its model, target, strategy
// and edited schedule and the tab, zoom and selected block. Writes are atomic (QSaveFile). A
// recovery file is written every minute and after each compile while a model is open and removed on
// a clean close; one left behind at start means the app did not close cleanly, and offerRecovery()
// asks to restore it. A project whose model is gone asks where it is now; one whose model changed
// says so and opens it with a new schedule. Every Run on Host is kept with the schedule it ran:
// saving writes each run's emulated and measured traces beside the project (SavedTraces.h);
// opening reads them all back into the run list (Compare tab) and shows the latest as the
// schedule's run when model and schedule still match, else in the Timeline as stale files.

#include "base/Diagnostic.h"
#include "jobs/JobRunner.h"
#include "project/Project.h"
#include "runs/SavedTraces.h"

#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QAction;
class QTimer;
class QWidget;

namespace strata::gui {

class Activity;
class EmulateController;
class GraphTab;
class CompareTab;
class MeasureController;
class ScheduleDocument;
class TimelineTab;

// What a project saves from and restores into: the window hands these over (the controller
// never reaches into the window itself).
struct ProjectParts {
    QWidget* window = nullptr; // parents the actions and the dialogs
    ScheduleDocument* document = nullptr;
    GraphTab* graph = nullptr;
    EmulateController* emulate = nullptr;
    MeasureController* measure = nullptr;
    CompareTab* compare = nullptr; // the run list every saved run comes back to
    TimelineTab* timeline = nullptr;
    std::function<QString()> currentFile;          // the model file open
    std::function<void(const QString&)> openModel; // starts loading a model
    std::function<QString()> currentTab;           // MainWindow::tabNames()
    std::function<bool(const QString& name)> showTab;
};

class ProjectController : public QObject {
    Q_OBJECT

  public:
    static constexpr int kAutosaveIntervalMs = 60'000;

    explicit ProjectController(ProjectParts parts);

    static bool isProjectFile(const QString& path);

    QAction* saveAction() const { return m_save; }
    QAction* saveAsAction() const { return m_saveAs; }
    QString projectPath() const { return m_path; }

    // Opens a project: its model loads in the background, then the saved schedule and view
    // are applied (projectOpened() reports the end). False when the file is refused (the
    // diagnostics say why) or the model cannot be found; the app stays as it was.
    bool open(const QString& path);
    // Saves to `path` atomically and makes it the project's file; false with a message if not.
    bool saveTo(const QString& path);
    // Save (Ctrl+S): to the project's file, or where a dialog asks when there is none yet.
    // False when it was not saved (cancelled or failed).
    bool save();
    bool saveAs();

    // What would be saved now (no model: nullopt).
    std::optional<project::Project> currentProject() const;

    // The recovery file; tests point it elsewhere.
    QString recoveryPath() const { return m_recoveryPath; }
    void setRecoveryPath(const QString& path) { m_recoveryPath = path; }
    // Writes the recovery file now (nothing without a model).
    bool autosave();
    // A recovery file from a session that did not close cleanly exists.
    bool hasRecovery() const;
    // Opens the recovery file as a project (it stays until the next clean close).
    bool restoreRecovery();
    // At start: asks whether to restore a recovery file left behind (interactive only).
    void offerRecovery();
    // Called on a clean close: the recovery file is not needed.
    void discardRecovery();

    // Where a moved model is now: asked with a file dialog unless replaced (tests). Returns
    // the new path, or empty to give up.
    void setRelocateHandler(std::function<QString(const QString& message)> handler);

    // Whether to open a project that names files outside its folder anyway (docs/PROJECTS.md,
    // Containment): asked with a message box unless replaced (tests); an empty handler
    // (headless) refuses. True: load anyway.
    void setOutsideFilesHandler(std::function<bool(const QString& message)> handler);
    // The last open() was refused because the project names files outside its folder.
    bool refusedOutsideFiles() const { return m_refusedOutside; }

    // What it reports (busy, status, diagnostics); the window shows it (ActivityBoard).
    Activity* activity() const { return m_activity; }

  public slots:
    // A model load ended (the window's loadFinished): a project waiting for it goes on.
    void onModelLoaded(const QString& path, bool ok);

  signals:
    // A project's model, schedule and view are in place (ok), or opening it stopped.
    void projectOpened(const QString& path, bool ok);
    // projectPath() changed: a project was opened or saved elsewhere, or a model opened on its
    // own left the project.
    void pathChanged();
    // The project was written to `path`, now its file.
    void saved(const QString& path);

  private:
    bool write(const QString& path, const project::Project& project, QString* error) const;
    // Containment: true when `project` names only files inside the folder of `path`, or the
    // user agreed to open it anyway.
    bool acceptOutsideFiles(const project::Project& project, const QString& path);
    void applySchedule();
    void applyView();
    // Reads the opened project's traces in the background, then finishes opening.
    void restoreTraces();
    void onTracesRead(const std::vector<ReadTraces>& runs);
    // A saved run as the run list shows it (no program); null without both traces.
    std::shared_ptr<const MeasuredRun> savedRun(const ReadTraces& read) const;
    // Every Run on Host of the session is kept for the project (not the saved ones coming back).
    void keepRun(std::shared_ptr<const MeasuredRun> run);
    void finishOpening(bool ok, const QString& message);
    // The traces to reference from a project saved to `path`: those already written for it and
    // every run not written yet, written now.
    std::vector<project::TraceRef> tracesToSave(const QString& path);

    ProjectParts m_parts;
    QString m_path; // the project's file; empty: not saved yet
    QString m_recoveryPath;
    std::optional<project::Project> m_opening; // a project whose model is loading
    QString m_openingPath;
    bool m_waitingForSchedule = false;
    // A Run on Host kept for the project, with the schedule it ran.
    struct KeptRun {
        std::shared_ptr<const MeasuredRun> run; // null: its saved files could not be read
        std::string scheduleHash;
        std::string scheduleJson;
    };
    std::vector<KeptRun> m_runs;             // oldest first; the index is the run's number
    std::vector<project::TraceRef> m_traces; // the runs written for m_tracesPath (a prefix)
    QString m_tracesPath;                    // the project file they were written for
    bool m_restoringRun = false;             // a saved run is being shown: not a new one
    std::function<QString(const QString&)> m_relocate;
    std::function<bool(const QString&)> m_confirmOutside;
    bool m_refusedOutside = false;
    std::vector<Diagnostic> m_outsideWarnings; // loaded anyway: said once the model is in
    bool m_trustedOpen = false; // the recovery file: written by the app itself, not handed over
    QAction* m_save = nullptr;
    QAction* m_saveAs = nullptr;
    QTimer* m_autosave = nullptr;
    JobLane m_traceReads{this}; // an opened project's saved traces
    Activity* m_activity = nullptr;
};

} // namespace strata::gui
