#include "controllers/MeasureController.h"

#include "calibrate/OtherLoad.h"
#include "document/ScheduleDocument.h"
#include "jobs/Activity.h"
#include "trace/AccuracyReport.h"
#include "trace/TraceCompare.h"
#include "trace/TraceSummary.h"
#include "views/graph/GraphScene.h"
#include "views/schedule/ScheduleTableModel.h"

#include <QAction>
#include <QWidget>
#include <algorithm>

namespace strata::gui {

MeasureController::MeasureController(ScheduleDocument* document, QWidget* window)
    : QObject(window), m_document(document) {
    m_activity = new Activity(QStringLiteral("run"), this);
    m_job = new MeasureJob(this);
    connect(m_job, &MeasureJob::finished, this, &MeasureController::onFinished);
    connect(m_job, &MeasureJob::progress, this, [this](const QString& stage) {
        m_activity->showStatus(stage == QLatin1String("run") ? tr("Running on this computer…")
                                                             : tr("Run on host: %1…").arg(stage),
                               0);
    });

    m_run = new QAction(tr("&Run on Host"), window);
    m_run->setObjectName(QStringLiteral("runOnHostAction"));
    m_run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_run->setStatusTip(
        tr("Run the schedule for real on this computer (host target) and measure every "
           "instruction (Ctrl+R)"));
    m_run->setToolTip(tr("Run on this computer and measure (host target, Ctrl+R)"));
    connect(m_run, &QAction::triggered, this, &MeasureController::run);
    m_cancel = new QAction(tr("Cancel Run"), window);
    m_cancel->setObjectName(QStringLiteral("cancelRunAction"));
    m_cancel->setEnabled(false);
    connect(m_cancel, &QAction::triggered, this, &MeasureController::cancel);
    window->addAction(m_run);
}

bool MeasureController::isCurrent() const {
    return m_last && m_document->isCurrent(m_last->emulation->revision);
}

void MeasureController::run() {
    const RevisionPtr& revision = m_document->revision();
    if (!revision->isComplete())
        return;
    m_running = revision;
    m_job->start(m_running);
    setRunning(true);
}

void MeasureController::cancel() {
    if (!m_job->isRunning())
        return;
    m_job->cancel();
    setRunning(false);
    m_activity->showStatus(tr("Run cancelled"), 5000);
}

void MeasureController::onFinished(const MeasureOutcome& outcome) {
    setRunning(false);
    if (outcome.cancelled)
        return;
    if (!m_document->isCurrent(outcome.revision)) {
        m_activity->showStatus(
            tr("The schedule changed during the run; its measurement was dropped"), 5000);
        return;
    }
    if (!outcome.ok()) {
        m_activity->report(outcome.failure, tr("Run on host failed"));
        m_activity->showStatus(
            tr("Run on host failed: %1")
                .arg(outcome.failure.empty()
                         ? tr("unknown error")
                         : QString::fromStdString(outcome.failure.front().message)),
            10000);
        return;
    }
    show(outcome.run);
    const double measuredS = double(trace::summarize(m_last->measured).totalPs) * 1e-12;
    const double predictedS = double(trace::summarize(m_last->emulation->trace).totalPs) * 1e-12;
    // Other work on the machine slows the run: say so where the user compares the two.
    const std::string busy = calibrate::busyMachineWarning(
        m_last->otherLoad, "the run",
        "the measured times are likely slower than on a quiet machine. Run again when it is "
        "quiet");
    if (!busy.empty())
        m_activity->report({warning(busy)}, tr("Measured on a busy machine"));
    m_activity->showStatus(
        tr("Measured %1 on this computer (median of %2 runs); predicted %3 (%4%5%)%6")
            .arg(views::graph::formatSeconds(measuredS))
            .arg(m_last->totalsNs.size())
            .arg(views::graph::formatSeconds(predictedS))
            .arg(predictedS >= measuredS ? "+" : "")
            .arg(measuredS > 0 ? 100 * (predictedS - measuredS) / measuredS : 0.0, 0, 'f', 1)
            .arg(busy.empty() ? QString()
                              : tr(" - the machine was busy (%1% of the CPUs in other work)")
                                    .arg(100 * *m_last->otherLoad, 0, 'f', 0)),
        15000);
    emit measured(m_last);
}

void MeasureController::restore(std::shared_ptr<const MeasuredRun> run) {
    if (!run)
        return;
    show(std::move(run));
    emit measured(m_last);
}

void MeasureController::show(std::shared_ptr<const MeasuredRun> run) {
    m_last = std::move(run);
    m_blocks.clear();
    // Per block as compareTraces pairs them: the same figures as strata-cli compare's.
    if (auto compared = trace::compareTraces(m_last->emulation->trace, m_last->measured))
        for (const trace::BlockComparison& b : compared->blocks)
            m_blocks[b.block] = {static_cast<double>(b.measuredPs) * 1e-12, b.error, {}, {}};
    // And the split of each block's time by kind, as strata-cli accuracy reports it.
    if (auto report = trace::accuracyReport(m_last->emulation->trace, {m_last->measured}))
        for (const trace::BlockAccuracy& b : report->blocks) {
            auto found = m_blocks.find(b.block);
            if (found == m_blocks.end())
                continue;
            auto seconds = [](const trace::KindTimes& t) {
                return views::schedule::ScheduleTableModel::KindSplit{
                    t.computePs * 1e-12, t.transferPs * 1e-12, t.waitPs * 1e-12};
            };
            found->second.predictedSplit = seconds(b.emulated);
            found->second.measuredSplit = seconds(b.measured);
        }
    applyMeasurements();
}

void MeasureController::setScheduleTable(views::schedule::ScheduleTableModel* table) {
    m_table = table;
    // After the window has put the new snapshot into the table (connected before this), and at
    // once when another revision is current (its snapshot may take a check to come).
    connect(m_document, &ScheduleDocument::snapshotChanged, this,
            &MeasureController::applyMeasurements);
    connect(m_document, &ScheduleDocument::revisionChanged, this,
            &MeasureController::applyMeasurements);
    applyMeasurements();
}

void MeasureController::applyMeasurements() {
    if (!m_table)
        return;
    const bool current =
        isCurrent() && m_document->snapshot().schedule == m_last->emulation->revision->schedule;
    m_table->setMeasurements(current ? m_blocks : decltype(m_blocks){});
}

void MeasureController::setRunning(bool running) {
    m_run->setEnabled(!running);
    m_cancel->setEnabled(running);
    m_activity->setBusy(running);
    emit busyChanged(running);
}

} // namespace strata::gui
