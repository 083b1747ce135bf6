#include "tabs/TimelineTab.h"

#include "document/Selection.h"
#include "jobs/Activity.h"
#include "tabs/RevisionBanner.h"
#include "trace/TraceJson.h"
#include "views/timeline/TimelineView.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QPointer>
#include <QShowEvent>
#include <QVBoxLayout>

namespace strata::gui {

namespace {

struct LoadOutcome {
    std::vector<std::shared_ptr<const trace::Trace>> traces;
    std::vector<std::string> names;
    std::vector<Diagnostic>
        diagnostics; // errors of files that did not load, warnings of those that did
    bool ok = true;
};

LoadOutcome loadFiles(const QStringList& paths) {
    LoadOutcome out;
    for (const QString& path : paths) {
        auto loaded = trace::loadTraceFile(path.toStdString());
        if (!loaded) {
            out.ok = false;
            out.diagnostics.insert(out.diagnostics.end(), loaded.diagnostics().begin(),
                                   loaded.diagnostics().end());
            continue;
        }
        out.diagnostics.insert(out.diagnostics.end(), loaded->warnings.begin(),
                               loaded->warnings.end());
        out.names.push_back(QFileInfo(path).fileName().toStdString() + " (" +
                            std::string(trace::sourceName(loaded->trace.source)) + ")");
        out.traces.push_back(std::make_shared<const trace::Trace>(std::move(loaded->trace)));
    }
    return out;
}

} // namespace

TimelineTab::TimelineTab(QWidget* parent) : QWidget(parent) {
    m_activity = new Activity(QStringLiteral("traces"), this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_view = new views::timeline::TimelineView;
    layout->addWidget(m_view);
    m_openTrace = new QAction(tr("Open &Trace\u2026"), this);
    m_openTrace->setStatusTip(
        tr("Open an emulated or measured trace (Strata / Chrome trace JSON)"));
    connect(m_openTrace, &QAction::triggered, this, &TimelineTab::showOpenDialog);
    m_view->setOpenAction(m_openTrace);
    connect(m_view, &views::timeline::TimelineView::eventSelected, this,
            [this](int trace, quint32 id) {
                // The emulated run, when there is one, is the first trace shown.
                const bool emulated = trace == 0 && m_shownEmulation;
                emit instructionClicked(id, emulated);
            });
}

void TimelineTab::setSelection(Selection* selection) {
    connect(this, &TimelineTab::instructionClicked, selection,
            [this, selection](quint32 id, bool emulated) {
                const compiler::Program* program =
                    emulated && m_shownEmulation ? m_shownEmulation->program.get() : nullptr;
                selection->selectInstructions({id}, program, Selection::Origin::Timeline);
            });
}

void TimelineTab::showOpenDialog() {
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Open Trace"), QString(),
                                                            tr("Traces (*.json);;All files (*)"));
    if (!paths.isEmpty())
        openTraceFiles(paths);
}

void TimelineTab::openTraceFiles(const QStringList& paths) {
    m_activity->showStatus(tr("Loading %n trace(s)\u2026", nullptr, static_cast<int>(paths.size())),
                           0);
    // A newer request supersedes this one.
    auto load = [paths](const Proceed&) { return loadFiles(paths); };
    m_loads.start<LoadOutcome>(std::move(load), [this](LoadOutcome outcome) {
        m_files.clear();
        for (std::size_t i = 0; i < outcome.traces.size(); ++i)
            m_files.push_back({outcome.traces[i], outcome.names[i]});
        m_activity->report(outcome.diagnostics);
        showTraces();
        if (!outcome.ok && m_files.empty() && !m_emulation) {
            QString text = tr("The trace could not be loaded:");
            for (const Diagnostic& d : outcome.diagnostics)
                if (d.severity == Severity::Error)
                    text += QStringLiteral("\n") + QString::fromStdString(d.toString());
            m_view->showMessage(text);
        }
        m_activity->showStatus(
            outcome.ok ? tr("Trace loaded") : tr("Some traces could not be loaded"), 4000);
        emit tracesLoaded(outcome.ok);
    });
}

void TimelineTab::setDocument(ScheduleDocument* document) {
    m_banner = new RevisionBanner(document, this);
    static_cast<QVBoxLayout*>(layout())->insertWidget(0, m_banner);
    updateBanner();
}

void TimelineTab::setEmulation(std::shared_ptr<const EmulationRun> run) {
    m_emulation = std::move(run);
    updateBanner();
    showTraces();
}

void TimelineTab::setMeasurement(std::shared_ptr<const MeasuredRun> run) {
    m_measurement = std::move(run);
    updateBanner();
    showTraces();
}

void TimelineTab::updateBanner() {
    if (!m_banner)
        return;
    // A run on host is shown with its own prediction (rebuild): the banner follows the run.
    if (m_measurement)
        m_banner->setShown(m_measurement->emulation->revision, tr("The run on host shown"),
                           tr("Run on Host (Ctrl+R) to measure the current one."));
    else
        m_banner->setShown(m_emulation ? m_emulation->revision : nullptr,
                           tr("The prediction shown"), tr("Emulate (F5) to predict it again."));
}

views::timeline::TimelineView* TimelineTab::view() {
    if (m_stale)
        rebuild();
    return m_view;
}

void TimelineTab::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_stale)
        rebuild();
}

void TimelineTab::showTraces() {
    if (!isVisible()) {
        m_stale = true;
        return;
    }
    rebuild();
}

void TimelineTab::rebuild() {
    m_stale = false;
    std::vector<std::shared_ptr<const trace::Trace>> traces;
    std::vector<std::string> names;
    std::shared_ptr<const EmulationRun> emulation = m_emulation;
    if (m_measurement &&
        (!emulation || !isCurrent(emulation->revision, m_measurement->emulation->revision)))
        emulation = m_measurement->emulation; // pair the run with its own prediction
    m_shownEmulation.reset();
    if (emulation && !emulation->trace.events.empty()) {
        m_shownEmulation = emulation;
        // Shares the run's trace without copying it: the alias keeps the run alive.
        traces.emplace_back(emulation, &emulation->trace);
        names.push_back(
            "emulated" +
            (emulation->targetName.isEmpty()
                 ? std::string()
                 : " (" + QFileInfo(emulation->targetName).baseName().toStdString() + ")"));
    }
    if (m_measurement) {
        traces.emplace_back(m_measurement, &m_measurement->measured);
        names.push_back("measured (this computer)");
    }
    for (const LoadedFile& file : m_files) {
        traces.push_back(file.trace);
        names.push_back(file.name);
    }
    m_view->setTraces(std::move(traces), std::move(names));
}

} // namespace strata::gui
