#include "dialogs/CalibrationDialog.h"

#include "base/Units.h"
#include "calibrate/Calibrate.h"
#include "views/transfers/CalibrationResidualsPlot.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QGridLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QStringList>
#include <QVBoxLayout>

namespace strata::gui {

CalibrationDialog::CalibrationDialog(QWidget* parent) : QDialog(parent) {
    setObjectName(QStringLiteral("calibrationDialog"));
    setWindowTitle(tr("Calibrate Host"));
    resize(1100, 760);
    auto* layout = new QVBoxLayout(this);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    auto* split = new QSplitter(Qt::Vertical);
    m_log = new QPlainTextEdit;
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    m_log->setPlaceholderText(tr("Progress appears here."));
    split->addWidget(m_log);
    m_results = new QWidget;
    auto* results = new QVBoxLayout(m_results);
    results->setContentsMargins(0, 0, 0, 0);
    m_figures = new QLabel;
    m_figures->setWordWrap(true);
    m_figures->setTextFormat(Qt::RichText);
    results->addWidget(m_figures);
    m_grid = new QGridLayout;
    results->addLayout(m_grid, 1);
    split->addWidget(m_results);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 4);
    layout->addWidget(split, 1);

    auto* buttons = new QDialogButtonBox;
    m_cancel = buttons->addButton(tr("Cancel Calibration"), QDialogButtonBox::RejectRole);
    m_save = buttons->addButton(tr("Save Calibrated Target\u2026"), QDialogButtonBox::ActionRole);
    m_use = buttons->addButton(tr("Use as Current Target"), QDialogButtonBox::ActionRole);
    QPushButton* close = buttons->addButton(QDialogButtonBox::Close);
    layout->addWidget(buttons);
    disconnect(buttons, nullptr, this, nullptr);
    connect(m_cancel, &QPushButton::clicked, this, &CalibrationDialog::cancelRequested);
    connect(m_save, &QPushButton::clicked, this, &CalibrationDialog::save);
    connect(m_use, &QPushButton::clicked, this, &CalibrationDialog::useRequested);
    connect(close, &QPushButton::clicked, this, &QDialog::hide);
    started();
}

void CalibrationDialog::started() {
    m_log->clear();
    for (auto* plot : m_plots)
        delete plot;
    m_plots.clear();
    m_figures->clear();
    m_results->setVisible(false);
    m_status->setText(
        tr("Measuring this computer: transfers per path and size, computes per op class, barriers. "
           "Keep the machine otherwise idle for the best figures."));
    m_cancel->setEnabled(true);
    m_save->setEnabled(false);
    m_use->setEnabled(false);
}

void CalibrationDialog::appendProgress(const QString& line) {
    m_log->appendPlainText(line);
}

void CalibrationDialog::showOutcome(const calibrate::CalibrationReport* report,
                                    const std::vector<views::transfers::PathResiduals>& residuals,
                                    const std::vector<Diagnostic>& diagnostics) {
    m_cancel->setEnabled(false);
    if (!report) {
        QString why;
        for (const auto& d : diagnostics)
            why += QStringLiteral("\n") + QString::fromStdString(d.toString());
        m_status->setText(tr("Calibration did not finish.") + why);
        return;
    }
    const calibrate::CalibrationReport& r = *report;
    m_status->setText(tr("Calibrated in %1 s on %2 core(s). Each plot: the transfers measured "
                         "alone, the uncalibrated "
                         "target's prediction (dashed) and the fit (solid), with their RMS "
                         "relative residuals. Curves "
                         "are for contiguous copies; strided samples also pay a per-row cost.")
                          .arg(r.seconds, 0, 'f', 1)
                          .arg(r.cores));
    const int columns = residuals.size() > 1 ? 2 : 1;
    for (std::size_t i = 0; i < residuals.size(); ++i) {
        auto* plot = new views::transfers::CalibrationResidualsPlot;
        plot->setMinimumSize(380, 260);
        plot->setPath(residuals[i]);
        m_grid->addWidget(plot, static_cast<int>(i) / columns, static_cast<int>(i) % columns);
        m_plots.push_back(plot);
    }
    QString figures = tr("<b>Compute</b>: overhead %1 cycles, RMS residual %2% &nbsp;\u2502&nbsp; "
                         "<b>waits</b> %3 cycles, "
                         "<b>barriers</b> %4 cycles, <b>gap</b> between instructions %5 ns")
                          .arg(r.compute.overheadCycles, 0, 'f', 0)
                          .arg(100 * r.compute.rmsRelativeErrorAll, 0, 'f', 1)
                          .arg(r.waitCycles, 0, 'f', 0)
                          .arg(r.barrierCycles, 0, 'f', 0)
                          .arg(r.gapNs, 0, 'f', 1);
    if (r.oneCoreSamples)
        figures += tr(" &nbsp;\u2502&nbsp; a block on <b>one core</b> computes in %1x the time "
                      "(%2 computes)")
                       .arg(r.oneCoreWorkFactor, 0, 'f', 2)
                       .arg(r.oneCoreSamples);
    if (r.joinSkew.coefficient > 0) {
        const double cyclesPerUs = r.target.clockHz / 1e6;
        figures += tr(" &nbsp;\u2502&nbsp; cores given equal work: the <b>last</b> reaches a "
                      "barrier %1 us after their mean in a 1 ms block (%2 barriers)")
                       .arg(r.joinSkew.cycles(1000 * cyclesPerUs) / cyclesPerUs, 0, 'f', 1)
                       .arg(r.joinSamples);
    }
    if (!r.sharedResource.empty() && r.shared.samples)
        figures += tr(" &nbsp;\u2502&nbsp; <b>%1</b> shared by all paths: %2 bytes/cycle (RMS "
                      "residual %3%)")
                       .arg(QString::fromStdString(r.sharedResource))
                       .arg(r.shared.bytesPerCycle, 0, 'f', 1)
                       .arg(100 * r.shared.rmsRelativeError, 0, 'f', 1);
    // Reads of weights and of bytes a core stored itself, and stores into lines it holds, have
    // their own figures (not plotted).
    for (const calibrate::PathReport& p : r.paths) {
        const target::TransferPath* path = r.target.findPath(p.path);
        for (const auto kind : target::kOwnFigureKinds) {
            const QString what =
                kind == target::ReadKind::Weight   ? tr("weight reads")
                : kind == target::ReadKind::Cached ? tr("reads of what the core stored")
                : kind == target::ReadKind::Shared ? tr("reads of rows another core stored")
                                                   : tr("stores into lines the core holds");
            const auto& own = path ? path->figuresOf(kind) : std::nullopt;
            const std::size_t samples = p.kindSamples[static_cast<std::size_t>(kind)];
            if (!own) {
                // Too few or too noisy samples (a busy machine): say so rather than leave the
                // user wondering where the figure went.
                if (samples > 0)
                    figures += tr("<br><b>%1</b>, %2: not fitted from %3 transfers, priced as the "
                                  "path's other transfers")
                                   .arg(QString::fromStdString(p.path), what)
                                   .arg(samples);
                continue;
            }
            figures +=
                tr("<br><b>%1</b>, %2: %3 bytes/cycle after %4 cycles (%5 transfers, RMS residual "
                   "%6%)")
                    .arg(QString::fromStdString(p.path), what)
                    .arg(own->bytesPerCycle, 0, 'f', 1)
                    .arg(own->latencyCycles, 0, 'f', 0)
                    .arg(p.kindSamples[static_cast<std::size_t>(kind)])
                    .arg(100 * p.kindFits[static_cast<std::size_t>(kind)]->rmsRelativeError, 0, 'f',
                         1);
            // Past the core's private cache: the rate by how much traffic came between.
            if (!own->byReuseDistance.empty()) {
                QStringList rates;
                for (const target::DistanceRate& point : own->byReuseDistance)
                    rates << tr("%1 at %2")
                                 .arg(point.bytesPerCycle, 0, 'f', 1)
                                 .arg(QString::fromStdString(
                                     formatBytes(std::uint64_t(point.bytes))));
                figures += tr("; past the core's private cache, by the traffic since: %1 "
                              "bytes/cycle")
                               .arg(rates.join(tr(", ")));
            }
        }
    }
    // What calibration warns of (a busy machine, a slowed core, figures far from the last
    // calibration's), after the figures it qualifies.
    for (const std::string& warning : r.warnings)
        figures +=
            tr("<br><b>Warning</b>: %1").arg(QString::fromStdString(warning).toHtmlEscaped());
    m_figures->setText(figures);
    m_results->setVisible(true);
    m_save->setEnabled(true);
    m_use->setEnabled(true);
}

QString CalibrationDialog::figuresText() const {
    return m_figures->text();
}

void CalibrationDialog::save() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save Calibrated Target"), m_suggestedPath, tr("Target descriptions (*.json)"));
    if (!path.isEmpty())
        emit saveRequested(path);
}

void CalibrationDialog::showError(const QString& title, const QString& error) {
    QMessageBox::warning(this, title, error);
}

void CalibrationDialog::showInUse(const QString& path) {
    m_status->setText(tr("The calibrated target (%1) is now the document's target.").arg(path));
}

} // namespace strata::gui
