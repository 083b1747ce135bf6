#include "controllers/ExportController.h"

#include "controllers/EmulateController.h"
#include "controllers/MeasureController.h"
#include "document/ScheduleDocument.h"
#include "export/Bundle.h"
#include "jobs/Activity.h"
#include "jobs/EmulateJob.h"
#include "views/export/RunPlots.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QPointer>
#include <exception>

namespace strata::gui {

namespace {

struct Written {
    QStringList files;
    QString error;
};

QString firstMessage(const std::vector<Diagnostic>& diagnostics) {
    return diagnostics.empty() ? QStringLiteral("unknown error")
                               : QString::fromStdString(diagnostics.front().message);
}

} // namespace

ExportController::ExportController(ScheduleDocument* document, EmulateController* emulate,
                                   MeasureController* measure, QWidget* window)
    : QObject(window), m_document(document), m_emulate(emulate), m_measure(measure),
      m_window(window) {
    m_activity = new Activity(QStringLiteral("export"), this);
    m_export = new QAction(tr("&Export Bundle…"), window);
    m_export->setObjectName(QStringLiteral("exportAction"));
    m_export->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_export->setStatusTip(
        tr("Write the assembly, program, generated C++, schedule, timelines, plots and a "
           "report into a folder (Ctrl+E)"));
    connect(m_export, &QAction::triggered, this, &ExportController::chooseFolderAndExport);
    window->addAction(m_export);
}

void ExportController::chooseFolderAndExport() {
    const QString folder = QFileDialog::getExistingDirectory(m_window, tr("Export Bundle Into"));
    if (!folder.isEmpty())
        exportTo(folder);
}

void ExportController::exportTo(const QString& folder) {
    if (m_busy)
        return;
    const RevisionPtr revision = m_document->revision();
    if (!revision->isComplete()) {
        done(false, folder, {}, tr("nothing to export: open a model first"));
        return;
    }
    m_busy = true;
    m_export->setEnabled(false);
    m_activity->showStatus(tr("Exporting to %1…").arg(folder), 0);

    std::shared_ptr<const MeasuredRun> measured =
        m_measure && m_measure->isCurrent() ? m_measure->last() : nullptr;
    std::shared_ptr<const EmulationRun> emulation =
        measured ? measured->emulation
                 : (m_emulate && m_emulate->isCurrent() ? m_emulate->last() : nullptr);
    if (emulation) {
        writeBundle(folder, revision, emulation, measured);
        return;
    }
    m_jobs.start<EmulateOutcome>(
        [revision](const Proceed& proceed) { return EmulateJob::run(revision, proceed); },
        [this, folder, revision](const EmulateOutcome& outcome) {
            if (!outcome.ok())
                done(false, folder, {}, firstMessage(outcome.failure));
            else
                writeBundle(folder, revision, outcome.run, nullptr);
        });
}

void ExportController::writeBundle(const QString& folder, const RevisionPtr& revision,
                                   std::shared_ptr<const EmulationRun> emulation,
                                   std::shared_ptr<const MeasuredRun> measured) {
    if (!QDir().mkpath(folder)) {
        done(false, folder, {}, tr("cannot create the folder %1").arg(folder));
        return;
    }
    const trace::Trace* measuredTrace = measured ? &measured->measured : nullptr;
    const views::exporting::PlotFiles plots =
        views::exporting::writeRunPlots(&emulation->trace, measuredTrace, folder);
    if (!plots.error.isEmpty()) {
        done(false, folder, {}, tr("cannot write %1 in %2").arg(plots.error, folder));
        return;
    }
    m_jobs.start<Written>(
        [folder, emulation, measured, schedule = revision->schedule, target = revision->machine(),
         plotNames = plots.names](const Proceed&) {
            exporting::BundleInput in;
            in.graph = emulation->graph.get();
            in.target = target.get();
            in.schedule = schedule.get();
            in.program = emulation->program.get();
            in.emulated = &emulation->trace;
            in.measured = measured ? &measured->measured : nullptr;
            for (const QString& p : plotNames)
                in.plots.push_back(p.toStdString());
            Written w;
            try {
                auto bundle = exporting::writeBundle(in, folder.toStdString());
                if (!bundle) {
                    w.error = firstMessage(bundle.diagnostics());
                    return w;
                }
                for (const auto& f : bundle->files)
                    w.files << QString::fromStdString(f.name);
            } catch (const std::exception& e) {
                w.error = QString::fromUtf8(e.what());
            }
            return w;
        },
        [this, folder](const Written& w) { done(w.error.isEmpty(), folder, w.files, w.error); });
}

void ExportController::done(bool ok, const QString& folder, const QStringList& files,
                            const QString& message) {
    m_busy = false;
    m_export->setEnabled(true);
    m_activity->showStatus(ok ? tr("Exported %1 files to %2").arg(files.size()).arg(folder)
                              : tr("Export failed: %1").arg(message),
                           10000);
    emit finished(ok, folder, files, message);
}

} // namespace strata::gui
