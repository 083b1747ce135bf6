#pragma once
// The Compare tab (docs/COMPARE.md): two runs from the RunList side by side — totals, per-block
// deltas (core's trace::compareRuns) and the two timelines on one axis. Pin Run adds the
// current schedule's prediction to the list; File → Import Trace… adds a trace file. A new Run
// on Host is picked at once as A = prediction, B = measurement; otherwise each new entry is
// compared with the one before it (pin, edit, pin: before against after). A schedule search pins
// its start and its result (pinSearch), so they are compared at once.

#include "base/Diagnostic.h"
#include "runs/EmulationRun.h"
#include "runs/MeasuredRun.h"

#include <QWidget>
#include <memory>
#include <vector>

class QAction;

namespace strata::views::compare {
class CompareView;
}

namespace strata::gui {

class Activity;
class EmulateController;
class RunList;
class ScheduleDocument;

class CompareTab : public QWidget {
    Q_OBJECT

  public:
    CompareTab(RunList* runs, ScheduleDocument* document, EmulateController* emulate,
               QWidget* parent = nullptr);

    views::compare::CompareView* view() const { return m_view; }
    RunList* runs() const { return m_runs; }
    QAction* pinAction() const { return m_pin; }
    QAction* importAction() const { return m_import; }

    // Pins the prediction of the document's current schedule; false (with a status message)
    // when there is none yet.
    bool pinCurrent();
    // Compares entries `a` and `b` of the run list.
    void compare(int a, int b);

    // What it reports (busy, status, diagnostics); the window shows it (ActivityBoard).
    Activity* activity() const { return m_activity; }

  public slots:
    void addHostRun(std::shared_ptr<const strata::gui::MeasuredRun> run);
    // Pins a search's start and result (SearchDialog::searchTimed): A = start, B = result.
    void pinSearch(std::shared_ptr<const strata::gui::EmulationRun> start,
                   std::shared_ptr<const strata::gui::EmulationRun> best);

  signals:

  private:
    void showImportDialog();
    void onAdded(int first, int count);
    void update();

    RunList* m_runs;
    ScheduleDocument* m_document;
    EmulateController* m_emulate;
    views::compare::CompareView* m_view = nullptr;
    QAction* m_pin = nullptr;
    QAction* m_import = nullptr;
    Activity* m_activity = nullptr;
};

} // namespace strata::gui
