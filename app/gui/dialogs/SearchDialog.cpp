#include "dialogs/SearchDialog.h"

#include "document/ScheduleDocument.h"
#include "jobs/Activity.h"
#include "jobs/SearchJob.h"
#include "schedule/Strategies.h"
#include "views/Format.h"
#include "views/graph/GraphScene.h"
#include "views/search/ParetoPlot.h"
#include "views/search/SearchHistoryPlot.h"

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

namespace strata::gui {

namespace {

constexpr int kDefaultBudgetSeconds = 30;
constexpr int kProgressSteps = 1000;
constexpr int kMeasureRounds = 5; // runs per measured candidate, as `strata-cli search --measure`
constexpr int kMaxMeasured = 16;

// Only the host runs programs on this computer; another target's times would be this
// computer's, not the target's.
bool measurable(const target::Target* target) {
    return target && target->name.rfind("host", 0) == 0;
}

QString figuresText(const search::Evaluation& e) {
    return QObject::tr("%1, DRAM %2")
        .arg(views::graph::formatSeconds(double(e.emulatedPs) * 1e-12),
             views::formatBytes(e.dramBytes));
}

} // namespace

std::vector<int> partitionOfSchedule(const schedule::Schedule& schedule, std::size_t opCount) {
    std::vector<int> blockOfOp(opCount, -1);
    for (const schedule::Block& block : schedule.blocks)
        for (ir::OpId op : block.ops)
            if (op.index < opCount)
                blockOfOp[op.index] = block.id;
    return blockOfOp;
}

SearchDialog::SearchDialog(ScheduleDocument* document, QWidget* parent)
    : QDialog(parent), m_document(document), m_job(new SearchJob(this)) {
    m_activity = new Activity(QStringLiteral("search"), this);
    setObjectName(QStringLiteral("searchDialog"));
    setWindowTitle(tr("Search Schedules"));
    resize(1000, 560);

    m_showAction = new QAction(tr("&Search Schedules\u2026"), this);
    m_showAction->setObjectName(QStringLiteral("searchSchedulesAction"));
    m_showAction->setStatusTip(tr(
        "Search fusion boundaries, cores, tiles and buffering for a faster or lighter schedule"));
    connect(m_showAction, &QAction::triggered, this, [this] {
        show();
        raise();
        activateWindow();
    });

    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    m_objective = new QComboBox;
    m_objective->addItem(tr("Predicted latency"), static_cast<int>(search::Objective::Latency));
    m_objective->addItem(tr("DRAM traffic"), static_cast<int>(search::Objective::Dram));
    m_objective->addItem(tr("Both (Pareto front)"), static_cast<int>(search::Objective::Pareto));
    m_objective->setObjectName(QStringLiteral("searchObjective"));
    m_algorithm = new QComboBox;
    m_algorithm->addItem(tr("Local search (hill climbing with restarts)"),
                         static_cast<int>(search::Algorithm::Local));
    m_algorithm->addItem(tr("Evolutionary search"), static_cast<int>(search::Algorithm::Evolution));
    m_budget = new QSpinBox;
    m_budget->setRange(1, 24 * 3600);
    m_budget->setValue(kDefaultBudgetSeconds);
    m_budget->setSuffix(tr(" s"));
    m_budget->setObjectName(QStringLiteral("searchBudget"));
    m_seed = new QSpinBox;
    m_seed->setObjectName(QStringLiteral("searchSeed"));
    m_seed->setRange(1, 1'000'000);
    form->addRow(tr("Objective:"), m_objective);
    form->addRow(tr("Algorithm:"), m_algorithm);
    form->addRow(tr("Budget:"), m_budget);
    form->addRow(tr("Seed:"), m_seed);
    m_measure = new QSpinBox;
    m_measure->setObjectName(QStringLiteral("searchMeasure"));
    m_measure->setRange(0, kMaxMeasured);
    m_measure->setSpecialValueText(tr("none (predictions only)"));
    m_measure->setSuffix(tr(" predicted best, run on this computer"));
    m_measure->setToolTip(
        tr("After the search, run this many of its best predicted schedules and the best start "
           "on this computer (%1 runs each, alternating) and keep the measured fastest. Host "
           "targets only.")
            .arg(kMeasureRounds));
    form->addRow(tr("Measure:"), m_measure);
    layout->addLayout(form);

    m_progress = new QProgressBar;
    m_progress->setRange(0, kProgressSteps);
    m_progress->setValue(0);
    layout->addWidget(m_progress);
    m_status =
        new QLabel(tr("Start searches from the current schedule and the built-in strategies."));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);
    m_measuredStatus = new QLabel;
    m_measuredStatus->setObjectName(QStringLiteral("searchMeasuredStatus"));
    m_measuredStatus->setWordWrap(true);
    m_measuredStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_measuredStatus->hide();
    layout->addWidget(m_measuredStatus);

    auto* plots = new QHBoxLayout;
    m_history = new views::search::SearchHistoryPlot;
    m_pareto = new views::search::ParetoPlot;
    plots->addWidget(m_history, 1);
    plots->addWidget(m_pareto, 1);
    layout->addLayout(plots, 1);

    auto* buttons = new QDialogButtonBox;
    m_start = buttons->addButton(tr("Start"), QDialogButtonBox::ActionRole);
    m_cancel = buttons->addButton(tr("Cancel Search"), QDialogButtonBox::ActionRole);
    m_apply = buttons->addButton(tr("Apply"), QDialogButtonBox::ActionRole);
    QPushButton* close = buttons->addButton(QDialogButtonBox::Close);
    layout->addWidget(buttons);
    disconnect(buttons, nullptr, this, nullptr);
    connect(m_start, &QPushButton::clicked, this, &SearchDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, &SearchDialog::cancel);
    connect(m_apply, &QPushButton::clicked, this, &SearchDialog::apply);
    connect(close, &QPushButton::clicked, this, &QDialog::hide);
    connect(m_pareto, &views::search::ParetoPlot::pointClicked, this, &SearchDialog::choose);
    connect(m_job, &SearchJob::progress, this, &SearchDialog::onProgress);
    connect(m_job, &SearchJob::finished, this, &SearchDialog::onFinished);
    connect(m_job, &SearchJob::measured, this, &SearchDialog::onMeasured);
    connect(m_job, &SearchJob::timed, this, &SearchDialog::searchTimed);
    // A new model: the result no longer applies.
    connect(m_document, &ScheduleDocument::revisionChanged, this, &SearchDialog::updateButtons);
    updateButtons();
}

search::SearchOptions SearchDialog::options() const {
    search::SearchOptions options;
    options.objective = static_cast<search::Objective>(m_objective->currentData().toInt());
    options.algorithm = static_cast<search::Algorithm>(m_algorithm->currentData().toInt());
    options.budgetSeconds = m_budget->value();
    options.seed = static_cast<std::uint64_t>(m_seed->value());
    options.maxEvaluations = m_maxEvaluations;
    options.keep = std::max(1, m_measure->isEnabled() ? m_measure->value() : 0);
    return options;
}

bool SearchDialog::isRunning() const {
    return m_job->isRunning();
}

QString SearchDialog::statusText() const {
    return m_status->text();
}

bool SearchDialog::start() {
    const RevisionPtr from = m_document->revision();
    if (!from->isComplete()) {
        m_status->setText(tr("Open a model and wait for its schedule before searching."));
        return false;
    }
    const auto& graph = from->graph;
    const auto target = from->machine();
    search::SearchOptions options = this->options();
    // The current schedule first (an edited one is where the user is), then every built-in.
    options.starts.push_back(*from->schedule);
    for (auto strategy :
         {schedule::Strategy::PerOp, schedule::Strategy::Rules, schedule::Strategy::FuseMax})
        options.starts.push_back(schedule::makeSchedule(*graph, *target, strategy));
    m_budgetSeconds = options.budgetSeconds;
    m_searched = graph;
    m_result.reset();
    m_chosen = -1;
    m_measured.clear();
    m_measureError.clear();
    m_measuredStatus->hide();
    m_history->clear();
    m_pareto->setFront({});
    m_progress->setValue(0);
    m_status->setText(
        tr("Searching %1 on %2\u2026")
            .arg(QString::fromStdString(graph->name), QString::fromStdString(target->name)));
    const int rounds = m_measure->isEnabled() && m_measure->value() > 0 ? kMeasureRounds : 0;
    m_job->start(from, std::move(options), rounds);
    emit previewRequested(nullptr);
    m_activity->showStatus(tr("Searching schedules\u2026"), 0);
    updateButtons();
    return true;
}

void SearchDialog::cancel() {
    if (!m_job->isRunning())
        return;
    m_job->cancel();
    m_status->setText(tr("Cancelling\u2026"));
}

void SearchDialog::onProgress(const search::SearchProgress& progress) {
    const double cap =
        m_maxEvaluations > 0 ? double(progress.evaluated) / double(m_maxEvaluations) : 0;
    const double time = m_budgetSeconds > 0 ? progress.seconds / m_budgetSeconds : 0;
    m_progress->setValue(
        static_cast<int>(kProgressSteps * std::clamp(std::max(cap, time), 0.0, 1.0)));
    if (!progress.best)
        return;
    m_history->addPoint(double(progress.evaluated), progress.best->emulatedNs());
    m_status->setText(tr("%1 candidates in %2 s \u2014 best %3")
                          .arg(progress.evaluated)
                          .arg(progress.seconds, 0, 'f', 1)
                          .arg(figuresText(*progress.best)));
}

void SearchDialog::onFinished(std::shared_ptr<const search::SearchResult> result,
                              const QString& error) {
    m_result = std::move(result);
    m_progress->setValue(kProgressSteps);
    if (!error.isEmpty()) {
        m_result.reset();
        m_status->setText(tr("The search failed: %1").arg(error));
        m_activity->showStatus(tr("Schedule search failed"), 5000);
        updateButtons();
        emit finished();
        return;
    }
    std::optional<search::Evaluation> bestStart;
    for (const auto& b : m_result->baselines)
        if (b.evaluation && (!bestStart || b.evaluation->emulatedPs < bestStart->emulatedPs))
            bestStart = b.evaluation;
    // The whole history replaces the progress points: one step per improvement, to the end.
    m_history->clear();
    if (bestStart)
        m_history->setBaseline(bestStart->emulatedNs());
    for (const auto& h : m_result->history)
        m_history->addPoint(double(h.evaluated), h.bestNs);
    if (m_result->best)
        m_history->addPoint(double(m_result->evaluated), m_result->best->evaluation.emulatedNs());
    std::vector<std::pair<double, double>> front;
    for (const auto& p : m_result->pareto)
        front.emplace_back(p.evaluation.emulatedNs(), double(p.evaluation.dramBytes));
    m_pareto->setFront(std::move(front));
    QString text;
    if (!m_result->best) {
        text = tr("No schedule validated (%1 candidates, %2 invalid).")
                   .arg(m_result->evaluated)
                   .arg(m_result->invalid);
    } else {
        text = tr("%1 candidates in %2 s (%3 invalid skipped)%4. Best: %5")
                   .arg(m_result->evaluated)
                   .arg(m_result->seconds, 0, 'f', 1)
                   .arg(m_result->invalid)
                   .arg(m_result->cancelled ? tr(", cancelled") : QString())
                   .arg(figuresText(m_result->best->evaluation));
        if (bestStart)
            text += tr("; best start: %1").arg(figuresText(*bestStart));
    }
    m_status->setText(text);
    m_measuredStatus->setText(measuredText());
    m_measuredStatus->setVisible(!m_measuredStatus->text().isEmpty());
    m_activity->showStatus(
        m_result->cancelled ? tr("Schedule search cancelled") : tr("Schedule search done"), 5000);
    updateButtons();
    emit finished();
}

void SearchDialog::onMeasured(std::vector<search::MeasuredCandidate> candidates,
                              const QString& error) {
    m_measured = std::move(candidates);
    m_measureError = error;
}

// "Measured on this computer: ...", or nothing when no measuring was asked.
QString SearchDialog::measuredText() const {
    if (!m_measureError.isEmpty())
        return tr("Not measured on this computer: %1").arg(m_measureError);
    if (m_measured.empty())
        return {};
    const std::size_t fastest = search::fastestMeasured(m_measured);
    // candidatesToMeasure puts the best start last, after the search's leaders.
    const bool startKept = fastest + 1 == m_measured.size() && m_result &&
                           m_measured.size() > m_result->leaders.size();
    const auto ms = [](double ns) { return views::graph::formatSeconds(ns * 1e-9); };
    QString text = tr("Measured on this computer (median of %1 runs each, alternating): kept %2, "
                      "%3 (predicted %4)")
                       .arg(kMeasureRounds)
                       .arg(startKept ? tr("the best start") : tr("search #%1").arg(fastest + 1))
                       .arg(ms(m_measured[fastest].measuredNs))
                       .arg(ms(m_measured[fastest].candidate.evaluation.emulatedNs()));
    if (!startKept && m_measured.size() > m_result->leaders.size())
        text += tr("; the best start %1").arg(ms(m_measured.back().measuredNs));
    return text + tr(".");
}

const search::Candidate* SearchDialog::chosen() const {
    if (!m_result)
        return nullptr;
    if (m_chosen >= 0 && m_chosen < static_cast<int>(m_result->pareto.size()))
        return &m_result->pareto[static_cast<std::size_t>(m_chosen)];
    if (!m_measured.empty())
        return &m_measured[search::fastestMeasured(m_measured)].candidate;
    return m_result->best ? &*m_result->best : nullptr;
}

void SearchDialog::choose(int index) {
    m_chosen =
        m_result && index >= 0 && index < static_cast<int>(m_result->pareto.size()) ? index : -1;
    m_pareto->setChosen(m_chosen);
    showChosen();
}

void SearchDialog::showChosen() {
    const search::Candidate* candidate = chosen();
    if (!candidate)
        return;
    m_status->setText(tr("Chosen: %1 (%2 blocks). Apply makes it the current schedule.")
                          .arg(figuresText(candidate->evaluation))
                          .arg(candidate->schedule.blocks.size()));
    emit previewRequested(std::make_shared<const schedule::Schedule>(candidate->schedule));
}

bool SearchDialog::apply() {
    const search::Candidate* candidate = chosen();
    if (!candidate)
        return false;
    if (m_searched != m_document->graph()) {
        m_status->setText(tr("The model changed since the search; search again."));
        return false;
    }
    const EditOutcome outcome = m_document->replaceSchedule(
        candidate->schedule,
        tr("Apply searched schedule (%1)").arg(figuresText(candidate->evaluation)));
    if (outcome.refused()) {
        m_status->setText(tr("The document refused the schedule: %1").arg(outcome.reason));
        return false;
    }
    emit previewRequested(nullptr);
    m_activity->showStatus(tr("Applied the searched schedule"), 5000);
    return true;
}

void SearchDialog::updateButtons() {
    const bool running = m_job->isRunning();
    m_start->setEnabled(!running);
    m_measure->setEnabled(!running && measurable(m_document->target().get()));
    m_cancel->setEnabled(running);
    m_apply->setEnabled(!running && chosen() != nullptr && m_searched == m_document->graph());
}

} // namespace strata::gui
