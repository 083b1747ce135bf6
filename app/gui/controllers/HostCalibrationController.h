#pragma once
// The first prediction on `host` is calibrated in the app as in strata-cli (docs/CALIBRATION.md):
// at start, when the document's target is `host` and this machine has no usable calibration, the
// CLI's calibrate::ensureHostCalibrated runs in the background and the target is reloaded when
// it is saved, so the prediction is redone on the measured figures. A status-bar label says
// which calibration the target uses; Recalibrate Host measures again, and a stale calibration
// (old, or unstamped) prompts it. After a run on this machine the speed check calibration timed
// (calibrate/MachineSpeed.h) is timed again: the label says the machine's speed against the
// calibration's, and a change past calibrate::kSpeedChange prompts Recalibrate too (the figures
// are a third off when a virtual machine's speed moves by a third). $STRATA_NO_CALIBRATE=1 turns
// the start-up job off (tests).

#include "calibrate/FirstCalibration.h"
#include "jobs/JobRunner.h"

#include <QObject>
#include <QPointer>
#include <memory>

class QAction;
class QLabel;
class QMessageBox;
class QWidget;

namespace strata::gui {

class Activity;
class ScheduleDocument;

class HostCalibrationController : public QObject {
    Q_OBJECT

  public:
    // `window` parents the action, the label and the prompt.
    HostCalibrationController(ScheduleDocument* document, QWidget* window);
    ~HostCalibrationController() override;

    QAction* recalibrateAction() const { return m_action; }
    // "host: calibrated 2026-11-26 06:35 UTC on <cpu> (2 cores)" or "host: uncalibrated figures",
    // then the speed since the last check ("; speed 0.98x on one core, 0.84x on 2 cores"); hidden
    // for other targets.
    QLabel* label() const { return m_label; }
    bool isRunning() const { return m_running; }
    // The open "calibration looks stale" prompt, if any (tests).
    QMessageBox* stalePrompt() const { return m_prompt; }
    // --quick's programs (tests): a second instead of a few.
    void setQuick(bool quick) { m_quick = quick; }
    // The file `host` resolves to (target::defaultCalibratedHostFile()).
    QString calibrationFile() const;

    // What it reports (busy, status, diagnostics); the window shows it (ActivityBoard).
    Activity* activity() const { return m_activity; }

  public slots:
    // Calibrates in the background when `host` is the target and nothing usable exists, or
    // prompts Recalibrate when the calibration is stale. Nothing with $STRATA_NO_CALIBRATE set.
    void checkAtStart();
    // Measures this computer and replaces the calibration, whatever it holds.
    void recalibrate();
    void refreshLabel();
    // Times the speed check again in the background, when `host` is the target and its
    // calibration timed it (nothing otherwise); then speedChecked().
    void checkSpeed();

  signals:
    // A speed check ended; `ratioText` the speed against calibration's, empty when it failed.
    void speedChecked(const QString& ratioText);
    void busyChanged(bool busy);
    // A calibration job ended; `saved` when the file now holds this machine's figures.
    void finished(bool saved);

  private:
    void start(bool force);
    void promptStale(const QString& why);
    bool hostIsTarget() const;

    ScheduleDocument* m_document;
    QWidget* m_window;
    QAction* m_action = nullptr;
    QLabel* m_label = nullptr;
    QPointer<QMessageBox> m_prompt;
    bool m_running = false;
    bool m_quick = false;
    bool m_switchToHost = false; // the document fell back to the preset from a broken calibration
    QString m_speed;             // the last speed check's ratios, for the label
    JobLane m_speedJobs{this};
    JobLane m_jobs{this}; // last: destroyed first, it waits for the job
    Activity* m_activity = nullptr;
};

} // namespace strata::gui
