#pragma once
// The Timeline tab: the TimelineView over the latest emulation of the schedule (from the
// EmulateController) and the trace files the user opened (File → Open Trace…: Strata / Chrome
// trace JSON, emulated or measured), all on one time axis. Files load in the background; a
// newer request drops an older one's result. A click on an event asks the window to select its
// instruction (and so its op in the graph).

#include "base/Diagnostic.h"
#include "jobs/JobRunner.h"
#include "runs/EmulationRun.h"
#include "runs/MeasuredRun.h"
#include "trace/Trace.h"

#include <QStringList>
#include <QWidget>
#include <memory>
#include <vector>

class QAction;

namespace strata::views::timeline {
class TimelineView;
}
namespace strata::views::graph {
class GraphView;
}
namespace strata::views::program {
class ProgramView;
}

namespace strata::gui {

class Activity;
class RevisionBanner;
class Selection;
class ScheduleDocument;

class TimelineTab : public QWidget {
    Q_OBJECT

  public:
    explicit TimelineTab(QWidget* parent = nullptr);

    // The view, brought up to date first: while the tab is hidden, new runs only mark it
    // stale, so predicting after every edit does not rebuild a timeline nobody looks at.
    views::timeline::TimelineView* view();
    // The document whose current revision the banner over the tab compares the runs' with.
    void setDocument(ScheduleDocument* document);
    QAction* openTraceAction() const { return m_openTrace; }
    bool isLoading() const { return m_loads.isRunning(); }

    // A click on an event selects its instruction in `selection`, with its op when the event is
    // of the emulated run shown (an event of an opened file: the instruction id only).
    void setSelection(Selection* selection);

    // Loads `paths` in the background, replacing the files shown before; tracesLoaded() tells
    // how it went.
    void openTraceFiles(const QStringList& paths);

    // What it reports (busy, status, diagnostics); the window shows it (ActivityBoard).
    Activity* activity() const { return m_activity; }

  public slots:
    // Shows `run`'s trace beside the opened files (null: none).
    void setEmulation(std::shared_ptr<const strata::gui::EmulationRun> run);
    // Shows a run on this computer paired with its prediction (null: none). When the emulation
    // on screen is of another schedule revision, the run's own prediction is shown instead.
    void setMeasurement(std::shared_ptr<const strata::gui::MeasuredRun> run);

  signals:
    void tracesLoaded(bool ok);
    // The user clicked the event of instruction `id`; `emulated`: of the emulated run.
    void instructionClicked(quint32 id, bool emulated);

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    void showOpenDialog();
    void showTraces(); // now when visible, else when next shown
    void rebuild();
    void updateBanner();

    struct LoadedFile {
        std::shared_ptr<const trace::Trace> trace;
        std::string name;
    };

    views::timeline::TimelineView* m_view = nullptr;
    RevisionBanner* m_banner = nullptr;
    QAction* m_openTrace = nullptr;
    std::shared_ptr<const EmulationRun> m_emulation;
    std::shared_ptr<const EmulationRun> m_shownEmulation; // the first trace shown, if any
    std::shared_ptr<const MeasuredRun> m_measurement;
    std::vector<LoadedFile> m_files;
    bool m_stale = false;  // runs changed while hidden
    JobLane m_loads{this}; // trace files read in the background
    Activity* m_activity = nullptr;
};

} // namespace strata::gui
