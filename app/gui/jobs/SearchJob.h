#pragma once
// Build > Search Schedules… off the UI thread (docs/SEARCH.md): search::searchSchedules as a job
// on a JobLane with a stop token, its progress marshalled to the UI thread after every batch. One
// search at a time; cancel() requests the stop (the search ends within one candidate per
// worker) and finished() still reports what it found, marked cancelled. A newer start drops an
// older search's progress and result. Before finished(), timed() hands the timelines of the
// search's first start and of its best schedule (compiled and emulated on the same thread), for
// the Compare tab to pin. With measureRounds > 0 (a host target), the search's leaders and its
// best start then run on this computer (search::measureCandidates, alternating) and measured()
// hands the figures before finished(); the best timeline is then the measured fastest's.

#include "jobs/JobRunner.h"
#include "runs/EmulationRun.h"
#include "search/Measure.h"
#include "search/Search.h"

#include <QObject>
#include <QString>
#include <memory>
#include <stop_token>

namespace strata::gui {

class SearchJob : public QObject {
    Q_OBJECT

  public:
    explicit SearchJob(QObject* parent = nullptr);
    ~SearchJob() override;

    // Searches schedules of `from`'s graph on its target (it needs both); the timelines timed()
    // hands over are of revisions like `from` with the candidates' schedules, numbered 0 (no
    // document's revision, so current nowhere).
    void start(RevisionPtr from, search::SearchOptions options, int measureRounds = 0);
    void cancel();
    bool isRunning() const { return m_jobs.isRunning(); }

  signals:
    void progress(const strata::search::SearchProgress& progress);
    // The candidates run on this computer, in search::candidatesToMeasure's order; `error`: why
    // they could not be (the search's result still stands).
    void measured(std::vector<strata::search::MeasuredCandidate> candidates, const QString& error);
    // `error`: why the search failed (then the result is empty).
    void finished(std::shared_ptr<const strata::search::SearchResult> result, const QString& error);
    // Just before finished(), when the search found a schedule: the predicted timelines of
    // options.starts.front() and of the best schedule.
    void timed(std::shared_ptr<const strata::gui::EmulationRun> start,
               std::shared_ptr<const strata::gui::EmulationRun> best);

  private:
    std::stop_source m_stop;
    JobLane m_jobs{this}; // after m_stop: destroyed first, it waits for the search
};

} // namespace strata::gui
