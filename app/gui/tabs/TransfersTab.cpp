#include "tabs/TransfersTab.h"

#include "analysis/MeasuredMicrobench.h"
#include "document/ScheduleDocument.h"
#include "document/Selection.h"
#include "jobs/Activity.h"
#include "tabs/RevisionBanner.h"
#include "trace/TraceSummary.h"
#include "views/graph/GraphView.h"
#include "views/program/ProgramListingModel.h"
#include "views/program/ProgramView.h"
#include "views/timeline/TimeFormat.h"
#include "views/transfers/BlockErrorBars.h"
#include "views/transfers/DurationScatter.h"
#include "views/transfers/ErrorHistogram.h"
#include "views/transfers/ThroughputPlot.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QShowEvent>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

namespace strata::gui {
namespace {

constexpr int kMicrobenchRepeats = 3;

TransferAnalysis analysePair(const trace::Trace& predicted, const trace::Trace* measured,
                             const trace::EventLabels& labels) {
    TransferAnalysis a;
    a.predicted = analysis::throughputBySize(predicted);
    for (const auto& p : predicted.paths)
        a.pathNames.push_back(p.name);
    a.predictedTotalNs = double(predicted.endPs()) * 1e-3;
    if (!measured)
        return a;
    a.measured = analysis::throughputBySize(*measured);
    a.matched = analysis::matchEvents(predicted, *measured);
    a.transferErrors = analysis::relativeErrors(a.matched, trace::EventKind::Transfer);
    a.computeErrors = analysis::relativeErrors(a.matched, trace::EventKind::Compute);
    a.transferKinds = analysis::groupedErrors(a.matched, labels, trace::EventKind::Transfer);
    a.computeClasses = analysis::groupedErrors(a.matched, labels, trace::EventKind::Compute);
    a.blocks = analysis::blockErrors(predicted, *measured);
    a.measuredTotalNs = double(measured->endPs()) * 1e-3;
    std::vector<double> magnitudes;
    for (double e : a.transferErrors)
        magnitudes.push_back(std::abs(e));
    a.transferMedianAbsError = analysis::quantile(magnitudes, 0.5);
    return a;
}

QString percent(double relative) {
    return QStringLiteral("%1%2%")
        .arg(relative > 0 ? QStringLiteral("+") : QString())
        .arg(100 * relative, 0, 'f', 1);
}

} // namespace

TransfersTab::TransfersTab(QWidget* parent) : QWidget(parent) {
    m_activity = new Activity(QStringLiteral("transfers"), this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);

    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Throughput of:")));
    m_source = new QComboBox;
    m_source->setObjectName(QStringLiteral("transfersSource"));
    m_source->addItem(tr("This schedule's transfers"), static_cast<int>(Source::Model));
    m_source->addItem(tr("Microbenchmark"), static_cast<int>(Source::Microbench));
    bar->addWidget(m_source);
    m_runMicrobench = new QPushButton(tr("Run Microbench"));
    m_runMicrobench->setObjectName(QStringLiteral("runMicrobench"));
    m_runMicrobench->setToolTip(tr(
        "Transfer throughput by size: two transfer kinds issued alternately, two in flight, swept "
        "over sizes; emulated on the current target, and measured on this computer when the "
        "target is host"));
    bar->addWidget(m_runMicrobench);
    m_cancelMicrobench = new QPushButton(tr("Cancel"));
    m_cancelMicrobench->setEnabled(false);
    bar->addWidget(m_cancelMicrobench);
    bar->addSpacing(12);
    m_showComputes = new QCheckBox(tr("Computes in the histogram"));
    m_showComputes->setChecked(true);
    bar->addWidget(m_showComputes);
    m_grouping = new QComboBox;
    m_grouping->setObjectName(QStringLiteral("histogramGrouping"));
    m_grouping->addItems(
        {tr("Transfers and computes"), tr("Transfers by kind"), tr("Computes by op class")});
    m_grouping->setToolTip(
        tr("The error histogram: all events, transfers by path and kind of read (weights, data "
           "the core stored, other), or computes by op class"));
    bar->addWidget(m_grouping);
    bar->addStretch(1);
    m_calibrate = new QToolButton;
    m_calibrate->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_calibrate->setVisible(false);
    bar->addWidget(m_calibrate);
    layout->addLayout(bar);

    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("transfersSummary"));
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);

    m_throughput = new views::transfers::ThroughputPlot;
    m_scatter = new views::transfers::DurationScatter;
    m_histogram = new views::transfers::ErrorHistogram;
    m_blocks = new views::transfers::BlockErrorBars;
    auto* top = new QSplitter(Qt::Horizontal);
    top->addWidget(m_throughput);
    top->addWidget(m_scatter);
    auto* bottom = new QSplitter(Qt::Horizontal);
    bottom->addWidget(m_histogram);
    bottom->addWidget(m_blocks);
    auto* rows = new QSplitter(Qt::Vertical);
    rows->addWidget(top);
    rows->addWidget(bottom);
    for (QSplitter* s : {top, bottom, rows}) {
        s->setChildrenCollapsible(false);
        s->setStretchFactor(0, 1);
        s->setStretchFactor(1, 1);
    }
    for (QWidget* w :
         std::initializer_list<QWidget*>{m_throughput, m_scatter, m_histogram, m_blocks})
        w->setMinimumSize(320, 220);
    layout->addWidget(rows, 1);

    connect(m_source, &QComboBox::currentIndexChanged, this,
            [this] { setSource(static_cast<Source>(m_source->currentData().toInt())); });
    connect(m_runMicrobench, &QPushButton::clicked, this, &TransfersTab::runMicrobench);
    connect(m_cancelMicrobench, &QPushButton::clicked, this, &TransfersTab::cancelMicrobench);
    connect(m_showComputes, &QCheckBox::toggled, m_histogram,
            &views::transfers::ErrorHistogram::setComputesShown);
    connect(m_grouping, &QComboBox::currentIndexChanged, this, &TransfersTab::showHistogram);
    connect(
        m_scatter, &views::transfers::DurationScatter::eventsSelected, this,
        [this](const QVector<quint32>& ids) {
            emit eventsSelected(ids);
            m_activity->showStatus(
                ids.size() == 1
                    ? tr("Transfer %1 selected").arg(ids.front())
                    : tr("%1 transfers selected; the first, %2, is shown in the graph and listing")
                          .arg(ids.size())
                          .arg(ids.front()),
                5000);
        });
    m_scatter->showMessage(tr("Run on Host (Ctrl+R) to compare predicted with measured durations"));
    m_histogram->showMessage(tr("Run on Host (Ctrl+R) to see the prediction error"));
    m_blocks->showMessage(tr("Run on Host (Ctrl+R) to see the error per block"));
    m_throughput->showMessage(tr("Emulate (F5) or run on host to see transfer throughput"));
    updateSummary();
}

TransfersTab::~TransfersTab() = default;

void TransfersTab::setCalibrateAction(QAction* action) {
    m_calibrate->setDefaultAction(action);
    m_calibrate->setVisible(action != nullptr);
}

void TransfersTab::setSelection(Selection* selection) {
    connect(this, &TransfersTab::eventsSelected, selection,
            [this, selection](const QVector<quint32>& ids) {
                // The first is made current in the listing (Selection's followers).
                const compiler::Program* program =
                    m_shownEmulation ? m_shownEmulation->program.get() : nullptr;
                selection->selectInstructions({ids.begin(), ids.end()}, program,
                                              Selection::Origin::Transfers);
            });
    connect(
        m_blocks, &views::transfers::BlockErrorBars::blockClicked, selection,
        [selection](int block) { selection->selectBlocks({block}, Selection::Origin::Transfers); });
}

void TransfersTab::setDocument(ScheduleDocument* document) {
    m_document = document;
    m_banner = new RevisionBanner(document, this);
    static_cast<QVBoxLayout*>(layout())->insertWidget(0, m_banner);
    updateBanner();
}

void TransfersTab::setEmulation(std::shared_ptr<const EmulationRun> run) {
    m_emulation = std::move(run);
    updateBanner();
    analyseWhenShown();
}

void TransfersTab::setMeasurement(std::shared_ptr<const MeasuredRun> run) {
    m_measurement = std::move(run);
    updateBanner();
    analyseWhenShown();
}

void TransfersTab::updateBanner() {
    if (!m_banner)
        return;
    // The errors need a run on host: the banner follows the last one while there is one.
    if (m_measurement)
        m_banner->setShown(m_measurement->emulation->revision, tr("The last run on host"),
                           tr("Run on Host (Ctrl+R) to measure the current one."));
    else
        m_banner->setShown(m_emulation ? m_emulation->revision : nullptr, tr("The prediction"));
}

// Predicting after every edit must not analyse and replot a tab nobody looks at.
void TransfersTab::analyseWhenShown() {
    if (!isVisible()) {
        m_stale = true;
        return;
    }
    m_stale = false;
    analyse();
}

void TransfersTab::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_stale)
        analyseWhenShown();
}

void TransfersTab::analyse() {
    std::shared_ptr<const EmulationRun> emulation = m_emulation;
    std::shared_ptr<const MeasuredRun> measurement;
    if (m_measurement &&
        (!emulation || isCurrent(emulation->revision, m_measurement->emulation->revision))) {
        emulation = m_measurement->emulation; // the run with its own prediction
        measurement = m_measurement;
    }
    if (!emulation)
        return;
    m_analysing = true;
    m_activity->setBusy(isBusy());
    emit busyChanged();
    m_analysisJobs.start<std::shared_ptr<const TransferAnalysis>>(
        [emulation, measurement,
         target = m_document ? m_document->target() : nullptr](const Proceed&) {
            // The groups of the grouped histogram: each instruction's path and kind of read or op
            // class.
            trace::EventLabels labels;
            if (measurement && target && emulation->program && emulation->graph)
                labels = analysis::eventLabels(*emulation->program, *target, *emulation->graph);
            return std::make_shared<const TransferAnalysis>(analysePair(
                emulation->trace, measurement ? &measurement->measured : nullptr, labels));
        },
        [this, emulation, measurement](std::shared_ptr<const TransferAnalysis> result) {
            m_analysing = false;
            m_shownEmulation = emulation;
            m_shownMeasured = measurement != nullptr;
            m_analysis = std::move(result);
            show(*m_analysis);
            m_activity->setBusy(isBusy());
            emit busyChanged();
            emit analysed();
        });
}

void TransfersTab::show(const TransferAnalysis& a) {
    showThroughput();
    if (!m_shownMeasured) {
        const QString hint = measureHint();
        m_scatter->showMessage(hint);
        m_histogram->showMessage(hint);
        m_blocks->showMessage(hint);
    } else {
        m_scatter->setEvents(a.matched, a.pathNames);
        showHistogram();
        m_blocks->setErrors(a.blocks);
    }
    updateSummary();
}

void TransfersTab::showHistogram() {
    const int grouping = m_grouping->currentIndex();
    m_showComputes->setEnabled(grouping == 0); // the grouped views show one kind of event
    if (!m_analysis || !m_shownMeasured)
        return;
    const TransferAnalysis& a = *m_analysis;
    if (grouping == 1) {
        m_histogram->setGroups(a.transferKinds, tr("transfer"));
    } else if (grouping == 2) {
        m_histogram->setGroups(a.computeClasses, tr("compute"));
    } else {
        m_histogram->setErrors(a.transferErrors, a.computeErrors);
        m_histogram->setComputesShown(m_showComputes->isChecked());
    }
}

QString TransfersTab::measureHint() const {
    const std::shared_ptr<const target::Target> target =
        m_document ? m_document->target() : nullptr;
    if (target && target->name != "host")
        return tr("Measured runs need the host target: choose host, then Run on Host (Ctrl+R)");
    if (m_measurement)
        return tr("The last run on host is of another schedule: Run on Host (Ctrl+R) again");
    return tr("Run on Host (Ctrl+R) to compare predicted with measured durations");
}

void TransfersTab::showThroughput() {
    if (static_cast<Source>(m_source->currentData().toInt()) == Source::Microbench) {
        if (m_microbench && m_microbench->predicted)
            m_throughput->setMicrobench(*m_microbench->predicted, m_microbench->measured
                                                                      ? &*m_microbench->measured
                                                                      : nullptr);
        else
            m_throughput->showMessage(
                m_microbenchRunning
                    ? tr("Running the microbenchmark\u2026")
                    : tr("Run Microbench to see the transfer throughput by size on this target"));
        return;
    }
    if (!m_analysis) {
        m_throughput->showMessage(tr("Emulate (F5) or run on host to see transfer throughput"));
        return;
    }
    m_throughput->setRunThroughput(m_analysis->predicted,
                                   m_shownMeasured ? m_analysis->measured
                                                   : std::vector<analysis::PathThroughput>{});
}

void TransfersTab::setSource(Source source) {
    const int index = m_source->findData(static_cast<int>(source));
    if (index != m_source->currentIndex()) {
        m_source->setCurrentIndex(index); // comes back here through the signal
        return;
    }
    showThroughput();
}

void TransfersTab::updateSummary() {
    const QString muted = QStringLiteral("<span style='color:#5f6670'>%1</span>");
    if (!m_analysis) {
        m_summary->setText(muted.arg(tr("No prediction yet.")));
        return;
    }
    const TransferAnalysis& a = *m_analysis;
    std::size_t transfers = 0;
    for (const auto& p : a.predicted)
        for (const auto& b : p.bins)
            transfers += b.transfers;
    QString text = tr("<b>Predicted</b> %1 over %2 transfers on %3 path(s)")
                       .arg(views::timeline::formatDuration(a.predictedTotalNs * 1e3))
                       .arg(transfers)
                       .arg(a.predicted.size());
    if (m_shownMeasured) {
        const double total = a.measuredTotalNs > 0
                                 ? (a.predictedTotalNs - a.measuredTotalNs) / a.measuredTotalNs
                                 : 0;
        text += tr(" &nbsp;\u2502&nbsp; <b>Measured</b> %1 (prediction %2) &nbsp;\u2502&nbsp; %3 "
                   "transfers and %4 computes "
                   "matched; median |error| of transfers %5")
                    .arg(views::timeline::formatDuration(a.measuredTotalNs * 1e3), percent(total))
                    .arg(a.transferErrors.size())
                    .arg(a.computeErrors.size())
                    .arg(QStringLiteral("%1%").arg(100 * a.transferMedianAbsError, 0, 'f', 1));
        if (!a.blocks.empty())
            text += tr(" &nbsp;\u2502&nbsp; worst block B%1 (%2)")
                        .arg(a.blocks.front().block)
                        .arg(percent(a.blocks.front().error));
    } else {
        text += QStringLiteral(" &nbsp;\u2502&nbsp; ") +
                muted.arg(tr("no measured run of this schedule"));
    }
    m_summary->setText(text);
}

emulator::MicrobenchSpec TransfersTab::microbenchSpec(const target::Target& target) {
    emulator::MicrobenchSpec spec;
    for (const auto& p : target.paths)
        if (p.source == target.mainMemory && spec.kinds.size() < 2)
            spec.kinds.push_back(p.name);
    for (const auto& p : target.paths)
        if (spec.kinds.size() < 2 &&
            std::find(spec.kinds.begin(), spec.kinds.end(), p.name) == spec.kinds.end())
            spec.kinds.push_back(p.name);
    // The largest transfer fits every memory the kinds touch.
    std::uint64_t limit = std::uint64_t(128) << 10;
    for (const std::string& kind : spec.kinds)
        if (const target::TransferPath* p = target.findPath(kind))
            for (const std::string& memory : {p->source, p->destination})
                if (const target::MemorySpace* m = target.findMemory(memory))
                    limit = std::min(limit, m->capacityBytes);
    for (std::uint64_t words = 1; words * spec.wordBytes <= limit; words *= 2)
        spec.sizes.push_back(words);
    return spec;
}

void TransfersTab::runMicrobench() {
    const std::shared_ptr<const target::Target> target =
        m_document ? m_document->target() : nullptr;
    if (!target)
        return;
    setSource(Source::Microbench);
    setMicrobenchRunning(true);
    showThroughput();
    const emulator::MicrobenchSpec spec = microbenchSpec(*target);
    const bool measure = target->name == "host";
    m_activity->showStatus(measure ? tr("Running the microbenchmark on this computer\u2026")
                                   : tr("Emulating the microbenchmark on %1\u2026")
                                         .arg(QString::fromStdString(target->name)),
                           0);
    m_microbenchJobs.start<MicrobenchOutcome>(
        [target, spec, measure](const Proceed& proceed) {
            MicrobenchOutcome out;
            auto predicted = emulator::runMicrobench(*target, spec);
            if (!predicted) {
                out.diagnostics = predicted.diagnostics();
                return out;
            }
            out.predicted = std::move(predicted).value();
            if (!measure || !proceed(QStringLiteral("measuring")))
                return out;
            auto measured = analysis::measureMicrobench(*target, spec, kMicrobenchRepeats, [&] {
                return proceed(QStringLiteral("measuring"));
            });
            if (measured)
                out.measured = std::move(measured).value();
            else
                out.diagnostics = measured.diagnostics();
            return out;
        },
        [this](MicrobenchOutcome outcome) {
            const bool ok = outcome.predicted.has_value() && outcome.diagnostics.empty();
            if (!outcome.diagnostics.empty())
                m_activity->report(outcome.diagnostics, tr("The microbenchmark failed"));
            m_microbench = std::move(outcome);
            setMicrobenchRunning(false);
            showThroughput();
            m_activity->showStatus(ok ? tr("Microbenchmark done") : tr("The microbenchmark failed"),
                                   4000);
            emit microbenchFinished(ok);
        },
        [this](const QString& stage) {
            m_activity->showStatus(tr("Microbenchmark: %1\u2026").arg(stage), 0);
        });
}

void TransfersTab::cancelMicrobench() {
    if (!m_microbenchRunning)
        return;
    m_microbenchJobs.cancel(); // the worker stops at the next size; its result is dropped
    setMicrobenchRunning(false);
    showThroughput();
    m_activity->showStatus(tr("Microbenchmark cancelled"), 3000);
}

void TransfersTab::setMicrobenchRunning(bool running) {
    m_microbenchRunning = running;
    m_runMicrobench->setEnabled(!running);
    m_cancelMicrobench->setEnabled(running);
    m_activity->setBusy(isBusy());
    emit busyChanged();
}

} // namespace strata::gui
