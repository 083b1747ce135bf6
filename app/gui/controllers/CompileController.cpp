#include "controllers/CompileController.h"

#include "document/ScheduleDocument.h"
#include "jobs/Activity.h"
#include "views/Format.h"
#include "views/pipeline/PipelineView.h"
#include "views/program/ProgramView.h"

#include <QAction>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>
#include <QWidget>

namespace strata::gui {

CompileController::CompileController(ScheduleDocument* document,
                                     views::program::ProgramView* program,
                                     views::pipeline::PipelineView* pipeline, QWidget* window)
    : QObject(window), m_document(document), m_program(program), m_pipeline(pipeline) {
    m_activity = new Activity(QStringLiteral("compile"), this);
    m_job = new CompileJob(this);
    connect(m_job, &CompileJob::progress, this, &CompileController::onProgress);
    connect(m_job, &CompileJob::finished, this, &CompileController::onFinished);

    m_compile = new QAction(tr("&Compile"), window);
    m_compile->setObjectName(QStringLiteral("compileAction"));
    m_compile->setShortcuts({QKeySequence(Qt::Key_F7), QKeySequence(Qt::CTRL | Qt::Key_B)});
    m_compile->setStatusTip(tr("Compile the schedule for the target in the background (F7)"));
    m_compile->setToolTip(tr("Compile the schedule (F7, Ctrl+B)"));
    connect(m_compile, &QAction::triggered, this, &CompileController::compile);
    m_cancel = new QAction(tr("Cancel Compile"), window);
    m_cancel->setObjectName(QStringLiteral("cancelCompileAction"));
    m_cancel->setEnabled(false);
    connect(m_cancel, &QAction::triggered, this, &CompileController::cancel);
    window->addAction(m_compile);

    m_progress = new QWidget(window);
    m_progress->setObjectName(QStringLiteral("compileProgress"));
    auto* row = new QHBoxLayout(m_progress);
    row->setContentsMargins(0, 0, 0, 0);
    m_progressLabel = new QLabel;
    m_progressBar = new QProgressBar;
    m_progressBar->setTextVisible(false);
    m_progressBar->setMaximumWidth(120);
    m_progressBar->setMaximumHeight(m_progressLabel->fontMetrics().height());
    auto* stop = new QToolButton;
    stop->setDefaultAction(m_cancel);
    stop->setAutoRaise(true);
    stop->setText(QStringLiteral("\u2715"));
    row->addWidget(m_progressLabel);
    row->addWidget(m_progressBar);
    row->addWidget(stop);
    m_progress->hide();

    m_program->setCompileAction(m_compile);
    m_pipeline->setCompileAction(m_compile);
    connect(m_document, &ScheduleDocument::revisionChanged, this,
            &CompileController::onRevisionChanged);
    onRevisionChanged();
}

bool CompileController::isStale() const {
    return m_compiled.isValid() && !m_document->isCurrent(m_compiledRevision);
}

void CompileController::compile() {
    const RevisionPtr& revision = m_document->revision();
    if (!revision->isComplete()) {
        m_activity->showStatus(m_document->graph() ? tr("No schedule to compile yet")
                                                   : tr("Open a model to compile it"),
                               5000);
        return;
    }
    m_running = revision;
    m_job->start(m_running);
    onProgress(0, CompileJob::stepCount(), tr("check"));
    setRunning(true);
}

void CompileController::cancel() {
    if (!m_job->isRunning())
        return;
    m_job->cancel();
    setRunning(false);
    m_activity->showStatus(tr("Compile cancelled"), 5000);
}

void CompileController::onRevisionChanged() {
    if (m_compiled.isValid() && m_compiled.graph != m_document->graph()) {
        // Another model: its compile means nothing here.
        m_compiled = {};
        m_compiledRevision.reset();
    }
    if (!m_compiled.isValid()) {
        const QString text = m_document->graph()
                                 ? tr("Not compiled yet. Press Compile (F7) to compile the "
                                      "schedule for the target chosen above.")
                                 : tr("Open a model, then press Compile (F7).");
        m_program->showMessage(text);
        m_pipeline->showMessage(text);
    }
    if (m_job->isRunning() && !m_document->isCurrent(m_running)) {
        m_job->cancel();
        setRunning(false);
        m_activity->showStatus(tr("Compile cancelled: the schedule changed. Press Compile (F7) "
                                  "again."),
                               8000);
    }
    updateStale();
}

void CompileController::updateStale() {
    const bool stale = isStale();
    m_program->setStale(stale);
    m_pipeline->setStale(stale);
}

void CompileController::onProgress(int step, int steps, const QString& name) {
    m_progressBar->setRange(0, steps);
    m_progressBar->setValue(step);
    m_progressLabel->setText(step == 0
                                 ? tr("Compiling: checking the schedule")
                                 : tr("Compiling: %1 (%2/%3)").arg(name).arg(step).arg(steps - 1));
}

void CompileController::onFinished(const CompileOutcome& outcome) {
    setRunning(false);
    if (outcome.cancelled)
        return;
    if (!m_document->isCurrent(outcome.revision)) {
        m_activity->showStatus(tr("Dropped a compile of an older schedule. Press Compile (F7) "
                                  "again."),
                               8000);
        return;
    }
    if (!outcome.ok()) {
        const QString reason = outcome.failure.empty()
                                   ? tr("unknown error")
                                   : QString::fromStdString(outcome.failure.front().message);
        m_activity->report(outcome.failure, {});
        m_activity->showStatus(tr("Compile failed: %1").arg(reason), 15000);
        return;
    }
    m_compiled = {};
    m_compiled.revision = outcome.revision->number;
    m_compiled.graph = outcome.revision->graph;
    m_compiled.result = outcome.result;
    m_compiled.targetName = outcome.revision->targetName();
    m_compiled.elapsedMs = outcome.elapsedMs;
    m_compiledRevision = outcome.revision;
    m_program->setProgram(m_compiled);
    m_pipeline->setProgram(m_compiled);
    updateStale();

    const compiler::Program& p = outcome.result->program;
    const QString target = QFileInfo(m_compiled.targetName).fileName();
    const QString text = tr("Compiled %1 for %2 in %3 ms: %4 instructions on %5 cores")
                             .arg(QString::fromStdString(p.modelName), target)
                             .arg(outcome.elapsedMs)
                             .arg(views::formatInteger(p.instructions.size()))
                             .arg(p.cores);
    m_activity->report(outcome.result->warnings, text);
    m_activity->showStatus(text, 15000);
    emit programShown();
}

void CompileController::showRunProgram(std::shared_ptr<const EmulationRun> run) {
    if (!run || !run->compiled || !m_document->isCurrent(run->revision) ||
        (m_compiled.isValid() && !isStale()))
        return;
    m_compiled = {};
    m_compiled.revision = run->revision->number;
    m_compiled.graph = run->graph;
    m_compiled.result = run->compiled;
    m_compiled.targetName = run->targetName;
    m_compiledRevision = run->revision;
    m_program->setProgram(m_compiled);
    m_pipeline->showMessage(tr("The program shown is the one the last run compiled, which keeps "
                               "no passes. Press Compile (F7) to see each pass."));
    updateStale();
    emit programShown();
}

void CompileController::setRunning(bool running) {
    m_progress->setVisible(running);
    m_cancel->setEnabled(running);
    m_activity->setBusy(running);
    emit busyChanged(running);
}

} // namespace strata::gui
