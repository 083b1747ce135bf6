#include "controllers/HostCalibrationController.h"

#include "calibrate/MachineSpeed.h"
#include "document/ScheduleDocument.h"
#include "jobs/Activity.h"
#include "target/CalibratedHost.h"

#include <QAction>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QWidget>

namespace strata::gui {

namespace {

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

// Checks timed per look at the machine's speed; their median decides.
constexpr int kSpeedChecks = 3;

// The speed check's median times now, or why it could not run.
Expected<calibrate::SpeedTimes> timeSpeedCheck(const target::Target& host) {
    auto check = calibrate::SpeedCheck::prepare(host);
    if (!check)
        return check.diagnostics();
    std::vector<calibrate::SpeedTimes> times;
    for (int i = 0; i < kSpeedChecks; ++i) {
        auto once = check->measure();
        if (!once)
            return once.diagnostics();
        times.push_back(std::move(*once));
    }
    return calibrate::medianTimes(times);
}

bool autoCalibrationOff() {
    const QByteArray value = qgetenv("STRATA_NO_CALIBRATE");
    return !value.isEmpty() && value != "0";
}

} // namespace

HostCalibrationController::HostCalibrationController(ScheduleDocument* document, QWidget* window)
    : QObject(window), m_document(document), m_window(window) {
    m_activity = new Activity(QStringLiteral("calibrate"), this);
    m_action = new QAction(tr("&Recalibrate Host"), window);
    m_action->setObjectName(QStringLiteral("recalibrateHostAction"));
    m_action->setStatusTip(
        tr("Measure this computer again (a few seconds) and make `host` use the new figures"));
    connect(m_action, &QAction::triggered, this, &HostCalibrationController::recalibrate);
    m_label = new QLabel(window);
    m_label->setObjectName(QStringLiteral("calibrationLabel"));
    connect(m_document, &ScheduleDocument::targetChanged, this,
            &HostCalibrationController::refreshLabel);
    refreshLabel();
}

HostCalibrationController::~HostCalibrationController() = default;

QString HostCalibrationController::calibrationFile() const {
    return fromStd(target::defaultCalibratedHostFile());
}

bool HostCalibrationController::hostIsTarget() const {
    return m_document->targetKey() == QLatin1String(ScheduleDocument::kDefaultTarget);
}

void HostCalibrationController::refreshLabel() {
    const auto target = m_document->target();
    const bool host = target && target->name == "host";
    m_label->setVisible(host);
    if (!host)
        return;
    // The machine goes to the tooltip: with the speed, the whole line did not fit the status
    // bar of a window 1224 pixels wide.
    QString text = tr("host: %1").arg(fromStd(target::describeCalibrationDate(*target)));
    if (!m_speed.isEmpty())
        text += tr("; speed %1").arg(m_speed);
    m_label->setText(text);
    m_label->setToolTip(
        target->calibrated
            ? tr("The host target is %1; its figures come from %2")
                  .arg(fromStd(target::describeCalibration(*target)), fromStd(target->source))
            : tr("The host preset's placeholder figures: Build > Recalibrate Host "
                 "measures this computer"));
}

void HostCalibrationController::checkAtStart() {
    if (autoCalibrationOff() || m_running)
        return;
    const target::HostCalibration found =
        target::inspectHostCalibration(target::defaultCalibratedHostFile(), target::probeHost());
    // A calibration that does not load made the document start on the preset (ScheduleDocument's
    // fall back): measure again and move it to `host`, as if it had loaded.
    const bool fellBack =
        found.state == target::CalibrationState::Unreadable &&
        m_document->targetKey() == QLatin1String(target::kUncalibratedHost.data());
    if (!hostIsTarget() && !fellBack)
        return;
    m_switchToHost = fellBack;
    if (found.needsCalibrating() && !found.file.empty())
        start(false);
    else if (found.state == target::CalibrationState::Stale)
        promptStale(fromStd(found.why));
}

void HostCalibrationController::checkSpeed() {
    const auto target = m_document->target();
    if (m_running || !hostIsTarget() || !target || !target->calibration ||
        target->calibration->speedChecks.empty() || m_speedJobs.isRunning())
        return;
    m_speedJobs.start<Expected<calibrate::SpeedTimes>>(
        [host = *target](const Proceed&) { return timeSpeedCheck(host); },
        [this, calibrated = target->calibration->speedChecks](Expected<calibrate::SpeedTimes> now) {
            if (!now) {
                m_activity->report(now.diagnostics(), tr("Speed check failed"));
                emit speedChecked({});
                return;
            }
            m_speed = fromStd(calibrate::speedText(calibrated, *now));
            refreshLabel();
            const std::string changed = calibrate::speedChangeWarning(
                calibrated, *now, "after the last run on it",
                "predictions on `host` are off by about as much for that alone");
            if (!changed.empty())
                promptStale(fromStd(changed));
            emit speedChecked(m_speed);
        });
}

void HostCalibrationController::recalibrate() {
    if (m_prompt)
        m_prompt->close();
    start(true);
}

void HostCalibrationController::promptStale(const QString& why) {
    if (m_prompt)
        return;
    auto* box = new QMessageBox(
        QMessageBox::Question, tr("Recalibrate this computer?"),
        tr("The host target's calibration may be stale: %1. Predictions on `host` use it until "
           "it is measured again (a few seconds).")
            .arg(why),
        QMessageBox::NoButton, m_window);
    box->setObjectName(QStringLiteral("staleCalibrationPrompt"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    QPushButton* again = box->addButton(tr("Recalibrate"), QMessageBox::AcceptRole);
    again->setObjectName(QStringLiteral("recalibrateButton"));
    box->addButton(tr("Later"), QMessageBox::RejectRole);
    connect(again, &QPushButton::clicked, this, &HostCalibrationController::recalibrate);
    m_prompt = box;
    box->show();
}

void HostCalibrationController::start(bool force) {
    if (m_running)
        return;
    const std::string file = target::defaultCalibratedHostFile();
    if (file.empty()) {
        m_activity->showStatus(
            tr("No configuration folder (neither XDG_CONFIG_HOME nor HOME is set): the calibration "
               "cannot be saved"),
            8000);
        return;
    }
    m_running = true;
    m_action->setEnabled(false);
    emit busyChanged(true);
    m_activity->showStatus(
        force ? tr("Recalibrating this machine's host target (~2 s)\u2026")
              : tr("Calibrating this machine's host target (first use, ~2 s)\u2026"),
        0);
    const bool quick = m_quick;
    m_jobs.start<calibrate::FirstCalibration>(
        [file, force, quick](const Proceed&) {
            calibrate::CalibrateOptions options;
            options.quick = quick;
            return force ? calibrate::recalibrateHost(file, options)
                         : calibrate::ensureHostCalibrated(file, options);
        },
        [this, file](calibrate::FirstCalibration outcome) {
            m_running = false;
            m_action->setEnabled(true);
            emit busyChanged(false);
            if (!outcome.diagnostics.empty())
                m_activity->report(outcome.diagnostics, outcome.saved
                                                            ? tr("Host calibration: warnings")
                                                            : tr("Host calibration failed"));
            if (outcome.saved) {
                m_activity->showStatus(
                    tr("Calibrated this machine's host target; saved to %1").arg(fromStd(file)),
                    8000);
                // The prediction is redone on the measured figures (setTarget recompiles and
                // emulates).
                if (hostIsTarget() || m_switchToHost)
                    m_document->setTarget(QLatin1String(ScheduleDocument::kDefaultTarget));
            }
            m_switchToHost = false;
            m_speed.clear(); // the new calibration's own speed
            refreshLabel();
            emit finished(outcome.saved);
        });
}

} // namespace strata::gui
