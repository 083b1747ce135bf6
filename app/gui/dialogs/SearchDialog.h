#pragma once
// Build > Search Schedules… (docs/SEARCH.md): the objective (latency, DRAM or both as a Pareto
// front), the algorithm, a budget in seconds and a seed; Start searches from the current schedule
// and the built-in strategies in the background (SearchJob) with progress and Cancel. While it
// runs, a plot shows the best predicted time against the candidates evaluated; when it ends, the
// Pareto front (time against DRAM bytes) with clickable points. Clicking a point chooses that
// schedule and previews it on the graph (previewRequested); Apply makes the chosen schedule (the
// best, unless a point was clicked) the current one as one undoable edit. When a search ends,
// searchTimed() hands the timelines of its start and result (the Compare tab pins them). On a
// host target, "Measure the best" runs that many of the best predicted and the best start on
// this computer after the search; the measured fastest is then the one Apply uses. Not modal.

#include "runs/EmulationRun.h"
#include "schedule/Schedule.h"
#include "search/Measure.h"
#include "search/Search.h"

#include <QDialog>
#include <memory>

class QAction;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace strata::views::search {
class ParetoPlot;
class SearchHistoryPlot;
} // namespace strata::views::search

namespace strata::gui {

class Activity;
// The block of every op (by OpId) in `schedule`, -1 for none: a searched schedule drawn on the
// graph before it is applied.
std::vector<int> partitionOfSchedule(const schedule::Schedule& schedule, std::size_t opCount);

class ScheduleDocument;
class SearchJob;

class SearchDialog : public QDialog {
    Q_OBJECT

  public:
    SearchDialog(ScheduleDocument* document, QWidget* parent = nullptr);

    // Build > Search Schedules…: shows the dialog.
    QAction* showAction() const { return m_showAction; }

    // The options the controls say (budget, seed, objective, algorithm) and the candidate cap.
    search::SearchOptions options() const;
    // At most this many candidates (0: no cap); with a cap the search is deterministic.
    void setMaxEvaluations(std::int64_t count) { m_maxEvaluations = count; }

    bool isRunning() const;
    // The last search's result (null before one ends) and the schedule Apply would use.
    const std::shared_ptr<const search::SearchResult>& result() const { return m_result; }
    const search::Candidate* chosen() const;
    // The last search's candidates run on this computer (empty when it measured none).
    const std::vector<search::MeasuredCandidate>& measured() const { return m_measured; }
    // Chooses Pareto point `index` (-1: the best), as a click does.
    void choose(int index);

    SearchJob* job() const { return m_job; }
    views::search::SearchHistoryPlot* historyPlot() const { return m_history; }
    views::search::ParetoPlot* paretoPlot() const { return m_pareto; }
    QPushButton* startButton() const { return m_start; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* applyButton() const { return m_apply; }
    QString statusText() const;
    // What the last search's measuring on this computer found (empty when it measured nothing).
    QString measuredText() const;

    // What it reports (busy, status, diagnostics); the window shows it (ActivityBoard).
    Activity* activity() const { return m_activity; }

  public slots:
    // Searches from the document's current schedule; false (with the reason shown) when there
    // is none yet.
    bool start();
    void cancel();
    // Makes the chosen schedule the document's current one; false when there is none, the model
    // changed since the search, or the document refused it.
    bool apply();

  signals:
    // A search ended (cancelled or not).
    void finished();
    // The user chose a schedule: draw it on the graph (null: show the current one again).
    void previewRequested(std::shared_ptr<const schedule::Schedule> schedule);
    // A search ended with a result: the predicted timelines of the current schedule it started
    // from and of its best schedule (before finished()).
    void searchTimed(std::shared_ptr<const strata::gui::EmulationRun> start,
                     std::shared_ptr<const strata::gui::EmulationRun> best);

  private:
    void onProgress(const search::SearchProgress& progress);
    void onFinished(std::shared_ptr<const search::SearchResult> result, const QString& error);
    void onMeasured(std::vector<search::MeasuredCandidate> candidates, const QString& error);
    void updateButtons();
    void showChosen();

    ScheduleDocument* m_document;
    SearchJob* m_job = nullptr;
    QAction* m_showAction = nullptr;
    QComboBox* m_objective = nullptr;
    QComboBox* m_algorithm = nullptr;
    QSpinBox* m_budget = nullptr;
    QSpinBox* m_seed = nullptr;
    QSpinBox* m_measure = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_measuredStatus = nullptr; // what measuring found, below the status
    views::search::SearchHistoryPlot* m_history = nullptr;
    views::search::ParetoPlot* m_pareto = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_apply = nullptr;
    std::int64_t m_maxEvaluations = 0;
    double m_budgetSeconds = 0;                  // of the running search
    std::shared_ptr<const ir::Graph> m_searched; // the graph the result belongs to
    std::shared_ptr<const search::SearchResult> m_result;
    int m_chosen = -1; // Pareto point; -1: the best (the measured fastest when measured)
    std::vector<search::MeasuredCandidate> m_measured;
    QString m_measureError;
    Activity* m_activity = nullptr;
};

} // namespace strata::gui
