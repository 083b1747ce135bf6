#pragma once
// File → Export Bundle… (Ctrl+E): the document's current schedule written as an export bundle
// (core/export, docs/EXPORT.md) with the plots of views/export. It uses the prediction and the
// measured run on screen when they are of the current schedule, and otherwise compiles and
// emulates it first; the compile and the files are written off the UI thread, the plots (widgets)
// on it.

#include "jobs/CompileJob.h"
#include "jobs/JobRunner.h"
#include "runs/MeasuredRun.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>

class QAction;
class QWidget;

namespace strata::gui {

class Activity;
class EmulateController;
class MeasureController;
class ScheduleDocument;

class ExportController : public QObject {
    Q_OBJECT

  public:
    ExportController(ScheduleDocument* document, EmulateController* emulate,
                     MeasureController* measure, QWidget* window);

    QAction* exportAction() const { return m_export; }
    bool isExporting() const { return m_busy; }

    // What it reports (busy, status, diagnostics); the window shows it (ActivityBoard).
    Activity* activity() const { return m_activity; }

  public slots:
    // Asks for a folder, then exports into it.
    void chooseFolderAndExport();
    // Exports into `folder` (created if needed); finished() tells how it went.
    void exportTo(const QString& folder);

  signals:
    // `files`: the names written; on failure empty, with the reason in `message`.
    void finished(bool ok, const QString& folder, const QStringList& files, const QString& message);

  private:
    // Plots here, files in the background; `request` is the schedule and target exported.
    void writeBundle(const QString& folder, const RevisionPtr& revision,
                     std::shared_ptr<const EmulationRun> emulation,
                     std::shared_ptr<const MeasuredRun> measured);
    void done(bool ok, const QString& folder, const QStringList& files, const QString& message);

    ScheduleDocument* m_document;
    EmulateController* m_emulate;
    MeasureController* m_measure;
    QWidget* m_window;
    QAction* m_export = nullptr;
    bool m_busy = false;
    JobLane m_jobs{this}; // the prediction to export, then the bundle's files
    Activity* m_activity = nullptr;
};

} // namespace strata::gui
