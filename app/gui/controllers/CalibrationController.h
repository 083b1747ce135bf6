#pragma once
// Calibrate Host… (docs/TRANSFERS.md): calibrateHost() run in the background on this computer
// (a JobLane: a newer start or a cancel drops the older result), its progress lines
// forwarded as they come, and the report kept with the target it started from so the residuals
// before and after can be shown (CalibrationDialog). The calibrated target can be saved as a
// target file and made the document's target.

#include "base/Diagnostic.h"
#include "calibrate/Calibrate.h"
#include "jobs/JobRunner.h"
#include "views/transfers/CalibrationResidualsPlot.h"

#include <QObject>
#include <QStringList>
#include <memory>

class QAction;
class QWidget;

namespace strata::gui {

class Activity;
class CalibrationDialog;
class ScheduleDocument;

struct CalibrationOutcome {
    std::shared_ptr<const target::Target> before;               // the host target measured
    std::shared_ptr<const calibrate::CalibrationReport> report; // null on failure
    std::vector<Diagnostic> diagnostics;
};

class CalibrationController : public QObject {
    Q_OBJECT

  public:
    // `window` parents the action and the dialog.
    CalibrationController(ScheduleDocument* document, QWidget* window);
    ~CalibrationController() override;

    QAction* calibrateAction() const { return m_action; }
    bool isRunning() const { return m_running; }
    // Few sizes and repeats (tests): a few seconds instead of a minute.
    void setQuick(bool quick) { m_quick = quick; }

    const std::optional<CalibrationOutcome>& last() const { return m_last; }
    QStringList progressLines() const { return m_lines; }
    // Per path of the last report: its samples against the target before and the fit.
    std::vector<views::transfers::PathResiduals> residuals() const;

    // Writes the last calibrated target to `path` (docs/TARGETS.md); false with `error` set.
    bool saveCalibratedTarget(const QString& path, QString* error = nullptr) const;
    // Saves it to defaultTargetPath() (or `path`) and makes it the document's target.
    bool useCalibratedTarget(const QString& path = {}, QString* error = nullptr);
    // target::defaultCalibratedHostFile() ($XDG_CONFIG_HOME/strata/host.calibrated.json), where
    // `strata-cli calibrate` writes and `host` resolves to; the app's data folder without one.
    QString defaultTargetPath() const;

    CalibrationDialog* dialog() const { return m_dialog; }

    // What it reports (busy, status, diagnostics); the window shows it (ActivityBoard).
    Activity* activity() const { return m_activity; }

  public slots:
    // Shows the dialog and starts calibrating (the document's target when it is host, else the host
    // preset).
    void calibrate();
    void cancel();

  signals:
    void progress(const QString& line);
    void finished(bool ok);
    void busyChanged(bool busy);

  private:
    void createDialog();

    ScheduleDocument* m_document;
    QWidget* m_window;
    QAction* m_action = nullptr;
    CalibrationDialog* m_dialog = nullptr;
    bool m_running = false;
    bool m_quick = false;
    QStringList m_lines;
    std::optional<CalibrationOutcome> m_last;
    JobLane m_jobs{this}; // last: destroyed first, it waits for the job
    Activity* m_activity = nullptr;
};

} // namespace strata::gui
