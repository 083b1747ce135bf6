#include "controllers/EmulateController.h"

#include "document/ScheduleDocument.h"
#include "document/SchedulePresentation.h"
#include "jobs/Activity.h"
#include "tabs/GraphTab.h"
#include "views/Format.h"
#include "views/graph/GraphScene.h"
#include "views/schedule/ScheduleTableModel.h"

#include <QAction>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QTimer>
#include <QToolButton>
#include <QWidget>

namespace strata::gui {

namespace {

constexpr int kShowProgressAfterMs = 300;

QString targetLabel(const QString& key) {
    return key.endsWith(QLatin1String(".json")) ? QFileInfo(key).fileName() : key;
}

} // namespace

EmulateController::EmulateController(ScheduleDocument* document, GraphTab* graph,
                                     views::schedule::ScheduleTableModel* table, QWidget* window)
    : QObject(window), m_document(document), m_graph(graph), m_table(table) {
    m_activity = new Activity(QStringLiteral("emulate"), this);
    m_job = new EmulateJob(this);
    connect(m_job, &EmulateJob::finished, this, &EmulateController::onFinished);
    connect(m_job, &EmulateJob::progress, this, [this](const QString& stage) {
        m_progressLabel->setText(stage == QLatin1String("emulate") ? tr("Predicting: emulating")
                                                                   : tr("Predicting: compiling"));
    });

    m_emulate = new QAction(tr("&Emulate"), window);
    m_emulate->setObjectName(QStringLiteral("emulateAction"));
    m_emulate->setShortcut(QKeySequence(Qt::Key_F5));
    m_emulate->setStatusTip(tr("Predict the schedule's time on the target with the emulator (F5)"));
    m_emulate->setToolTip(tr("Emulate the schedule: predicted time per block (F5)"));
    connect(m_emulate, &QAction::triggered, this, &EmulateController::emulate);
    m_cancel = new QAction(tr("Cancel Emulate"), window);
    m_cancel->setObjectName(QStringLiteral("cancelEmulateAction"));
    m_cancel->setEnabled(false);
    connect(m_cancel, &QAction::triggered, this, &EmulateController::cancel);
    m_auto = new QAction(tr("&Predict After Each Edit"), window);
    m_auto->setObjectName(QStringLiteral("autoEmulateAction"));
    m_auto->setCheckable(true);
    m_auto->setChecked(true);
    m_auto->setStatusTip(tr("Emulate the schedule again after every edit"));
    window->addAction(m_emulate);

    m_progress = new QWidget(window);
    m_progress->setObjectName(QStringLiteral("emulateProgress"));
    auto* row = new QHBoxLayout(m_progress);
    row->setContentsMargins(0, 0, 0, 0);
    m_progressLabel = new QLabel;
    auto* bar = new QProgressBar;
    bar->setRange(0, 0); // compile and emulate report no fraction
    bar->setTextVisible(false);
    bar->setMaximumWidth(80);
    bar->setMaximumHeight(m_progressLabel->fontMetrics().height());
    auto* stop = new QToolButton;
    stop->setDefaultAction(m_cancel);
    stop->setAutoRaise(true);
    stop->setText(QStringLiteral("\u2715"));
    row->addWidget(m_progressLabel);
    row->addWidget(bar);
    row->addWidget(stop);
    m_progress->hide();

    m_total = new QLabel(window);
    m_total->setObjectName(QStringLiteral("predictedTotal"));
    m_total->setTextFormat(Qt::RichText);

    m_coalesce = new QTimer(this);
    m_coalesce->setSingleShot(true);
    m_coalesce->setInterval(0);
    connect(m_coalesce, &QTimer::timeout, this, &EmulateController::emulate);
    m_showProgress = new QTimer(this);
    m_showProgress->setSingleShot(true);
    m_showProgress->setInterval(kShowProgressAfterMs);
    connect(m_showProgress, &QTimer::timeout, this, [this] {
        if (m_job->isRunning())
            m_progress->show();
    });

    connect(m_document, &ScheduleDocument::revisionChanged, this,
            &EmulateController::onRevisionChanged);
    // After the window has shown the new snapshot (it resets the table and the badges).
    connect(m_document, &ScheduleDocument::snapshotChanged, this,
            &EmulateController::applyPredictions);
    updateTotal();
}

bool EmulateController::isCurrent() const {
    return m_last && m_document->isCurrent(m_last->revision);
}

std::unordered_map<int, double> EmulateController::predictions() const {
    return isCurrent() ? m_seconds : std::unordered_map<int, double>{};
}

void EmulateController::emulate() {
    m_coalesce->stop();
    const RevisionPtr& revision = m_document->revision();
    if (!revision->isComplete())
        return;
    m_running = revision;
    m_failure.clear();
    m_job->start(m_running);
    m_progressLabel->setText(tr("Predicting: compiling"));
    setRunning(true);
}

void EmulateController::cancel() {
    m_coalesce->stop();
    if (!m_job->isRunning())
        return;
    m_job->cancel();
    setRunning(false);
    m_activity->showStatus(tr("Emulation cancelled"), 5000);
}

void EmulateController::onRevisionChanged() {
    if (m_last && m_last->graph != m_document->graph()) {
        // Another model: its prediction means nothing here.
        m_last.reset();
        m_seconds.clear();
        m_dram.clear();
    }
    if (!m_document->isCurrent(m_edited)) {
        m_edited = m_document->revision();
        m_sinceEdit.start();
    }
    const bool superseded = m_job->isRunning() && !m_document->isCurrent(m_running);
    if (superseded) {
        m_job->cancel();
        setRunning(false);
    }
    if (m_auto->isChecked() && m_document->schedule() && !isCurrent()) {
        // An edit on its own is predicted at once, beside the UI's work on the new schedule
        // (table, graph, layout) rather than after it; during a burst (a prediction was just
        // superseded, or one is already due) the latest edit is predicted once the turn ends.
        if (superseded || m_coalesce->isActive())
            m_coalesce->start();
        else
            emulate();
    }
    updateTotal();
}

void EmulateController::onFinished(const EmulateOutcome& outcome) {
    setRunning(false);
    if (outcome.cancelled || !m_document->isCurrent(outcome.revision))
        return; // a newer schedule is on its way
    if (!outcome.ok()) {
        m_failure = outcome.failure.empty()
                        ? tr("unknown error")
                        : QString::fromStdString(outcome.failure.front().message);
        updateTotal();
        return;
    }
    m_last = outcome.run;
    m_seconds.clear();
    m_dram.clear();
    for (const trace::BlockSummary& block : outcome.summary.blocks) {
        if (block.timePs <= 0 && block.dramBytes == 0)
            continue; // a block id with no events
        m_seconds[block.block] = static_cast<double>(block.timePs) * 1e-12;
        m_dram[block.block] = block.dramBytes;
    }
    m_totalSeconds = static_cast<double>(outcome.summary.totalPs) * 1e-12;
    m_total->setToolTip(tr("Emulated on %1: compile %2 ms, emulation %3 ms, %4 events")
                            .arg(targetLabel(outcome.revision->targetName()))
                            .arg(outcome.compileMs)
                            .arg(outcome.emulateMs)
                            .arg(views::formatInteger(m_last->trace.events.size())));
    applyPredictions();
    if (m_edited && m_document->isCurrent(m_edited))
        m_latencyMs = m_sinceEdit.elapsed();
    emit emulated(m_last);
    emit predictionsShown(m_latencyMs);
}

void EmulateController::applyPredictions() {
    const views::schedule::ScheduleSnapshot& snapshot = m_document->snapshot();
    const bool current = isCurrent() && snapshot.schedule == m_last->revision->schedule;
    if (current) {
        m_table->setPredictions(m_seconds);
        std::vector<views::graph::BlockBadge> badges = badgesOf(snapshot);
        for (views::graph::BlockBadge& badge : badges)
            if (const auto it = m_seconds.find(badge.block); it != m_seconds.end())
                badge.predictedSeconds = it->second;
        m_graph->setBadges(std::move(badges));
    }
    updateTotal();
}

void EmulateController::updateTotal() {
    QString text;
    if (!m_document->schedule()) {
        m_total->clear();
        return;
    }
    if (isCurrent()) {
        text = tr("Predicted <b>%1</b>").arg(views::graph::formatSeconds(m_totalSeconds));
    } else if (!m_failure.isEmpty()) {
        text = tr("<span style='color:#b26a00'>No prediction</span>");
        m_total->setToolTip(tr("The emulator could not predict this schedule: %1").arg(m_failure));
    } else if (m_job->isRunning() || m_coalesce->isActive()) {
        text = tr("<span style='color:#5f6670'>Predicting\u2026</span>");
    } else {
        text = tr("<span style='color:#5f6670'>Not emulated (F5)</span>");
    }
    m_total->setText(text);
}

void EmulateController::setRunning(bool running) {
    m_cancel->setEnabled(running);
    if (running)
        m_showProgress->start();
    else {
        m_showProgress->stop();
        m_progress->hide();
    }
    updateTotal();
    m_activity->setBusy(running);
    emit busyChanged(running);
}

} // namespace strata::gui
