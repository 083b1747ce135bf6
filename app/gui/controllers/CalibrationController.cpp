#include "controllers/CalibrationController.h"

#include "calibrate/PreviousCalibration.h"
#include "dialogs/CalibrationDialog.h"
#include "document/ScheduleDocument.h"
#include "jobs/Activity.h"
#include "target/CalibratedHost.h"
#include "target/TargetLoader.h"
#include "target/TargetWriter.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QStandardPaths>
#include <QWidget>

namespace strata::gui {

CalibrationController::CalibrationController(ScheduleDocument* document, QWidget* window)
    : QObject(window), m_document(document), m_window(window) {
    m_activity = new Activity(QStringLiteral("calibrate"), this);
    m_action = new QAction(tr("Calibrate &Host\u2026"), window);
    m_action->setObjectName(QStringLiteral("calibrateHostAction"));
    m_action->setStatusTip(
        tr("Measure this computer's transfers, computes and barriers and fit the host target to "
           "them (5-10 seconds on a 2-core machine)"));
    connect(m_action, &QAction::triggered, this, &CalibrationController::calibrate);
}

CalibrationController::~CalibrationController() = default;

QString CalibrationController::defaultTargetPath() const {
    // Where `strata-cli calibrate` writes it: `host` then means the calibrated file everywhere.
    const std::string file = target::defaultCalibratedHostFile();
    if (!file.empty())
        return QString::fromStdString(file);
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("host.calibrated.json"));
}

void CalibrationController::calibrate() {
    if (!m_dialog)
        createDialog();
    m_dialog->show();
    m_dialog->raise();
    if (m_running)
        return;
    std::shared_ptr<const target::Target> host = m_document->target();
    if (!host || host->name != "host") {
        auto preset = target::resolveTarget("host");
        if (!preset) {
            m_activity->report(preset.diagnostics(), tr("The host target could not be loaded"));
            return;
        }
        host = std::make_shared<const target::Target>(std::move(preset).value());
    }
    m_lines.clear();
    m_running = true;
    m_action->setEnabled(false);
    emit busyChanged(true);
    m_activity->showStatus(tr("Calibrating the host target\u2026"), 0);
    const bool quick = m_quick;
    const std::string previousPath = defaultTargetPath().toStdString();
    m_dialog->started();
    m_jobs.start<CalibrationOutcome>(
        [host, quick, previousPath](const Proceed& proceed) {
            calibrate::CalibrateOptions options;
            options.quick = quick;
            // calibrateHost cannot stop midway: a cancel drops its result when it returns.
            options.progress = [&proceed](const std::string& line) {
                proceed(QString::fromStdString(line));
            };
            CalibrationOutcome out;
            out.before = host;
            auto report = calibrate::calibrateHost(*host, options);
            // The calibration in use, if any: figures far apart from it are told.
            if (report && QFile::exists(QString::fromStdString(previousPath)))
                if (auto previous = target::loadTargetFile(previousPath))
                    for (std::string& change :
                         calibrate::changesSincePrevious(*previous, report->target))
                        report->warnings.push_back(std::move(change));
            if (report)
                out.report =
                    std::make_shared<const calibrate::CalibrationReport>(std::move(report).value());
            else
                out.diagnostics = report.diagnostics();
            return out;
        },
        [this](CalibrationOutcome outcome) {
            m_running = false;
            m_action->setEnabled(true);
            const bool ok = outcome.report != nullptr;
            if (!ok)
                m_activity->report(outcome.diagnostics, tr("Calibration failed"));
            m_last = std::move(outcome);
            emit busyChanged(false);
            m_activity->showStatus(
                ok ? tr("Calibration done in %1 s").arg(m_last->report->seconds, 0, 'f', 1)
                   : tr("Calibration failed"),
                5000);
            emit finished(ok);
        },
        [this](const QString& line) {
            m_lines << line;
            emit progress(line);
        });
}

void CalibrationController::createDialog() {
    m_dialog = new CalibrationDialog(m_window);
    m_dialog->setSuggestedPath(defaultTargetPath());
    connect(m_dialog, &CalibrationDialog::cancelRequested, this, &CalibrationController::cancel);
    connect(m_dialog, &CalibrationDialog::saveRequested, this, [this](const QString& path) {
        QString error;
        if (!saveCalibratedTarget(path, &error))
            m_dialog->showError(tr("Save Calibrated Target"), error);
    });
    connect(m_dialog, &CalibrationDialog::useRequested, this, [this] {
        QString error;
        if (!useCalibratedTarget({}, &error))
            m_dialog->showError(tr("Use Calibrated Target"), error);
        else
            m_dialog->showInUse(defaultTargetPath());
    });
    connect(this, &CalibrationController::progress, m_dialog, &CalibrationDialog::appendProgress);
    connect(this, &CalibrationController::finished, m_dialog, [this](bool ok) {
        const bool report = ok && m_last && m_last->report;
        m_dialog->showOutcome(report ? m_last->report.get() : nullptr, residuals(),
                              m_last ? m_last->diagnostics : std::vector<Diagnostic>{});
    });
}

void CalibrationController::cancel() {
    if (!m_running)
        return;
    m_jobs.cancel();
    m_running = false;
    m_action->setEnabled(true);
    emit busyChanged(false);
    m_activity->showStatus(tr("Calibration cancelled"), 3000);
    emit finished(false);
}

std::vector<views::transfers::PathResiduals> CalibrationController::residuals() const {
    std::vector<views::transfers::PathResiduals> out;
    if (!m_last || !m_last->report)
        return out;
    const target::Target& before = *m_last->before;
    for (const calibrate::PathReport& p : m_last->report->paths) {
        views::transfers::PathResiduals r;
        r.path = QString::fromStdString(p.path);
        r.clockHz = before.clockHz;
        for (const calibrate::TransferSample& s : p.samples)
            r.samples.push_back({s.bytes, s.cycles, s.rows});
        if (const target::TransferPath* path = before.findPath(p.path))
            r.before = {path->latencyCycles, path->bytesPerCycle, path->rowOverheadCycles,
                        path->ramp.bytes, path->ramp.bytesPerCycle};
        r.after = {p.fit.latencyCycles, p.fit.bytesPerCycle, p.fit.rowOverheadCycles,
                   p.fit.rampBytes, p.fit.rampBytesPerCycle};
        out.push_back(std::move(r));
    }
    return out;
}

bool CalibrationController::saveCalibratedTarget(const QString& path, QString* error) const {
    if (!m_last || !m_last->report) {
        if (error)
            *error = tr("there is no calibration to save");
        return false;
    }
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    const std::string json = target::targetToJson(m_last->report->target);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(json.data(), static_cast<qint64>(json.size())) < 0 || !file.commit()) {
        if (error)
            *error = tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

bool CalibrationController::useCalibratedTarget(const QString& path, QString* error) {
    const QString target = path.isEmpty() ? defaultTargetPath() : path;
    if (!saveCalibratedTarget(target, error))
        return false;
    if (!m_document->setTarget(target)) {
        if (error)
            *error = tr("the saved target %1 did not load").arg(target);
        return false;
    }
    m_activity->showStatus(tr("Using the calibrated host target %1").arg(target), 5000);
    return true;
}

} // namespace strata::gui
