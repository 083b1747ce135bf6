#include "tabs/CompareTab.h"

#include "controllers/EmulateController.h"
#include "document/ScheduleDocument.h"
#include "jobs/Activity.h"
#include "runs/RunList.h"
#include "schedule/Strategies.h"
#include "trace/AccuracyReport.h"
#include "trace/RunDelta.h"
#include "trace/TraceCompare.h"
#include "views/compare/CompareView.h"

#include <QAction>
#include <QFileDialog>
#include <QVBoxLayout>
#include <algorithm>

namespace strata::gui {

namespace {

// Two timelines of one program time the same instructions: every id matched, none left over.
bool sameProgram(const trace::Trace& a, const trace::Trace& b) {
    if (a.events.size() != b.events.size() || a.events.empty())
        return false;
    const auto compared = trace::compareTraces(a, b);
    return compared && compared->matched == a.events.size();
}

// A copy of `run` whose instruction ids all lie above `a`'s, so the timeline matches none of
// its events with `a`'s: the ids of two different programs name different instructions.
std::shared_ptr<const trace::Trace> withIdsAbove(const trace::Trace& a, const trace::Trace& run) {
    std::uint32_t offset = 0;
    for (const trace::Event& e : a.events)
        offset = std::max(offset, e.id + 1);
    auto copy = std::make_shared<trace::Trace>(run);
    for (trace::Event& e : copy->events) {
        e.id += offset;
        if (e.kind == trace::EventKind::Wait && e.link >= 0)
            e.link += static_cast<std::int32_t>(offset); // the transfer it waits on
    }
    return copy;
}

} // namespace

CompareTab::CompareTab(RunList* runs, ScheduleDocument* document, EmulateController* emulate,
                       QWidget* parent)
    : QWidget(parent), m_runs(runs), m_document(document), m_emulate(emulate) {
    m_activity = new Activity(QStringLiteral("compare"), this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_view = new views::compare::CompareView;
    layout->addWidget(m_view);

    m_pin = new QAction(tr("&Pin Run"), this);
    m_pin->setObjectName(QStringLiteral("pinRunAction"));
    m_pin->setStatusTip(
        tr("Keep the current schedule's prediction to compare it with later ones (Compare tab)"));
    m_pin->setToolTip(tr("Pin the current schedule's prediction for the Compare tab"));
    connect(m_pin, &QAction::triggered, this, &CompareTab::pinCurrent);
    m_import = new QAction(tr("&Import Trace\u2026"), this);
    m_import->setObjectName(QStringLiteral("importTraceAction"));
    m_import->setStatusTip(
        tr("Add a trace file (Strata / Chrome trace JSON or CSV) to the runs to compare"));
    connect(m_import, &QAction::triggered, this, &CompareTab::showImportDialog);
    m_view->addToolAction(m_pin);
    m_view->addToolAction(m_import);

    connect(m_runs, &RunList::added, this, &CompareTab::onAdded);
    connect(m_runs, &RunList::importFailed, this,
            [this](const QString& path, const std::vector<Diagnostic>& diagnostics) {
                m_activity->report(diagnostics);
                m_activity->showStatus(
                    tr("Could not import %1: %2")
                        .arg(path, diagnostics.empty()
                                       ? tr("unknown error")
                                       : QString::fromStdString(diagnostics.front().message)),
                    15000);
            });
    connect(m_view, &views::compare::CompareView::selectionChanged, this, &CompareTab::compare);
}

bool CompareTab::pinCurrent() {
    const std::shared_ptr<const EmulationRun>& run = m_emulate->last();
    if (!run || !m_emulate->isCurrent()) {
        m_activity->showStatus(tr("No prediction of this schedule to pin yet (Emulate, F5)"), 5000);
        return false;
    }
    const std::string_view strategy = schedule::strategyName(m_document->strategy());
    m_runs->pin(run, QString::fromUtf8(strategy.data(), static_cast<qsizetype>(strategy.size())));
    m_activity->showStatus(
        tr("Pinned the prediction of revision %1").arg(run->revision ? run->revision->number : 0),
        4000);
    return true;
}

void CompareTab::addHostRun(std::shared_ptr<const MeasuredRun> run) {
    if (run)
        m_runs->addHostRun(std::move(run));
}

void CompareTab::pinSearch(std::shared_ptr<const EmulationRun> start,
                           std::shared_ptr<const EmulationRun> best) {
    if (!start || !best)
        return;
    // Each pin selects the newest against the one before (onAdded): after both, start vs result.
    m_runs->pin(std::move(start), tr("search start"), tr("search start"));
    m_runs->pin(std::move(best), tr("search result"), tr("search result"));
    m_activity->showStatus(tr("Pinned the search's start and result in the Compare tab"), 5000);
}

void CompareTab::showImportDialog() {
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Import Trace"), QString(), tr("Traces (*.json *.csv);;All files (*)"));
    for (const QString& path : paths)
        m_runs->importFile(path);
}

void CompareTab::onAdded(int first, int count) {
    m_view->setRunNames(m_runs->names());
    const std::vector<RunEntry>& entries = m_runs->entries();
    const bool hostRun = count == 2 && entries[static_cast<std::size_t>(first)].kind ==
                                           RunEntry::Kind::HostPrediction;
    if (hostRun)
        m_view->select(first, first + 1); // its prediction against its measurement
    else if (m_runs->size() >= 2)
        m_view->select(m_runs->size() - 2, m_runs->size() - 1); // the newest against the one before
    else
        update();
}

void CompareTab::compare(int a, int b) {
    const std::vector<RunEntry>& entries = m_runs->entries();
    const auto valid = [&](int i) {
        return i >= 0 && static_cast<std::size_t>(i) < entries.size();
    };
    if (!valid(a) || !valid(b)) {
        m_view->showMessage(
            entries.size() < 2
                ? tr("Pin two runs (Pin Run before and after an edit), run on host (Ctrl+R), or "
                     "import traces; then pick A and B")
                : tr("Pick the runs A and B to compare"));
        return;
    }
    const RunEntry& ea = entries[static_cast<std::size_t>(a)];
    const RunEntry& eb = entries[static_cast<std::size_t>(b)];
    views::compare::CompareView::Comparison c;
    c.delta = trace::compareRuns(*ea.trace, *eb.trace);
    c.nameA = ea.shortName.toStdString();
    c.nameB = eb.shortName.toStdString();
    c.sameProgram = sameProgram(*ea.trace, *eb.trace);
    c.a = ea.trace;
    c.b = c.sameProgram ? eb.trace : withIdsAbove(*ea.trace, *eb.trace); // else lanes just stacked
    if (c.sameProgram) // the per-block split, A as the prediction and B as the measurement
        if (auto accuracy = trace::accuracyReport(*ea.trace, {*eb.trace}))
            c.blocks = std::move(accuracy->blocks);
    m_view->showComparison(std::move(c));
}

void CompareTab::update() {
    compare(m_view->runA(), m_view->runB());
}

} // namespace strata::gui
