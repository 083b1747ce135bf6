#include "shell/MainWindow.h"

#include "controllers/CalibrationController.h"
#include "controllers/CompileController.h"
#include "controllers/EmulateController.h"
#include "controllers/ExportController.h"
#include "controllers/HostCalibrationController.h"
#include "controllers/MeasureController.h"
#include "controllers/ProjectController.h"
#include "dialogs/SearchDialog.h"
#include "document/ScheduleDocument.h"
#include "document/ScheduleEditor.h"
#include "document/SchedulePresentation.h"
#include "document/Selection.h"
#include "jobs/JobRunner.h"
#include "jobs/ModelLoader.h"
#include "panels/DiagnosticsPanel.h"
#include "panels/InspectorDock.h"
#include "panels/ScheduleToolBar.h"
#include "runs/RunList.h"
#include "shell/ActivityBoard.h"
#include "shell/MainMenus.h"
#include "shell/MainTabs.h"
#include "shell/RecentFiles.h"
#include "shell/UnsavedChanges.h"
#include "shell/WelcomePage.h"
#include "tabs/CompareTab.h"
#include "tabs/GraphTab.h"
#include "tabs/HeatOverlay.h"
#include "tabs/OpsTab.h"
#include "tabs/ProgramSelection.h"
#include "tabs/TimelineTab.h"
#include "tabs/TransfersTab.h"
#include "views/Format.h"
#include "views/compare/CompareView.h"
#include "views/graph/GraphView.h"
#include "views/schedule/ScheduleTableModel.h"

#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QLabel>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

namespace strata::gui {

namespace {

const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
const QString kSplitterKey = QStringLiteral("mainWindow/splitter");

using Source = DiagnosticsPanel::Source;
using Listing = ActivityBoard::Listing;
using Reveal = ActivityBoard::Reveal;

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(QStringLiteral("Strata"));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    m_loader = new ModelLoader(this);
    connect(m_loader, &ModelLoader::started, this,
            [this](std::uint64_t, const QString& path) { onLoadStarted(path); });
    connect(m_loader, &ModelLoader::finished, this, &MainWindow::onLoadFinished);
    m_document = new ScheduleDocument(this);
    m_selection = new Selection(m_document, this);

    m_tabs = buildMainTabs();
    setCentralWidget(m_tabs.stack);
    connect(m_tabs.welcome, &WelcomePage::openRequested, this, &MainWindow::showOpenDialog);
    connect(m_tabs.graph, &GraphTab::layoutFinished, this, &MainWindow::graphLayoutFinished);
    m_docks = buildMainDocks(this, m_document, m_selection);
    m_board = new ActivityBoard(statusBar(), m_docks.diagnostics, m_docks.diagnosticsDock, this);
    createControllers();
    connectDocument();
    connectRuns();
    connectActivities();
    connectSelection();

    MenuParts menus;
    menus.openRequested = [this] { showOpenDialog(); };
    menus.document = m_document;
    menus.editor = m_editor;
    menus.toolbar = m_scheduleBar;
    menus.compile = m_compile;
    menus.emulate = m_emulate;
    menus.measure = m_measure;
    menus.exporter = m_export;
    menus.project = m_project;
    menus.timeline = m_tabs.timeline;
    menus.compare = m_tabs.compare;
    menus.search = m_searchDialog;
    menus.calibration = m_calibration;
    menus.hostCalibration = m_hostCalibration;
    menus.docks = {m_docks.scheduleDock, m_docks.inspector, m_docks.diagnosticsDock};
    m_recent = new RecentFiles(buildMainMenus(this, menus), this);
    connect(m_recent, &RecentFiles::openRequested, this, &MainWindow::openFile);
    addToolBar(Qt::TopToolBarArea, m_scheduleBar);

    QSettings settings;
    restoreGeometry(settings.value(kGeometryKey).toByteArray());
    restoreState(settings.value(kStateKey).toByteArray());
    m_tabs.ops->restoreState(settings.value(kSplitterKey).toByteArray());
    QTimer::singleShot(0, m_hostCalibration, &HostCalibrationController::checkAtStart);
}

MainWindow::~MainWindow() {
    // The children's jobs end as they go: the half-gone window must not hear of it.
    disconnect(&JobRunner::instance(), nullptr, this, nullptr);
    disconnect(&JobRunner::instance(), nullptr, m_board, nullptr);
}

void MainWindow::createControllers() {
    // The window shows each new snapshot before the controllers add their figures to it.
    connect(m_document, &ScheduleDocument::snapshotChanged, this, &MainWindow::onScheduleSnapshot);
    m_editor = new ScheduleEditor(m_document, m_selection, m_tabs.graph->view(),
                                  m_docks.scheduleTable, m_docks.scheduleModel, this);
    m_scheduleBar = new ScheduleToolBar(this);
    m_compile = new CompileController(m_document, m_tabs.program, m_tabs.pipeline, this);
    m_emulate = new EmulateController(m_document, m_tabs.graph, m_docks.scheduleModel, this);
    m_heat = new HeatOverlay(m_tabs.graph->view(), m_document, m_emulate, this);
    m_measure = new MeasureController(m_document, this);
    m_heat->setMeasureController(m_measure);
    m_measure->setScheduleTable(m_docks.scheduleModel);
    m_export = new ExportController(m_document, m_emulate, m_measure, this);
    m_calibration = new CalibrationController(m_document, this);
    m_hostCalibration = new HostCalibrationController(m_document, this);
    m_tabs.timeline->setDocument(m_document);
    m_tabs.transfers->setDocument(m_document);
    m_tabs.transfers->setCalibrateAction(m_calibration->calibrateAction());
    m_runs = new RunList(this);
    m_tabs.addCompare(new CompareTab(m_runs, m_document, m_emulate));
    m_searchDialog = new SearchDialog(m_document, this);

    ProjectParts parts;
    parts.window = this;
    parts.document = m_document;
    parts.graph = m_tabs.graph;
    parts.emulate = m_emulate;
    parts.measure = m_measure;
    parts.timeline = m_tabs.timeline;
    parts.compare = m_tabs.compare;
    parts.currentFile = [this] { return m_currentFile; };
    parts.openModel = [this](const QString& path) { openFile(path); };
    parts.currentTab = [this] { return currentTabName(); };
    parts.showTab = [this](const QString& name) { return showTab(name); };
    m_project = new ProjectController(std::move(parts));
    connect(this, &MainWindow::loadFinished, m_project, &ProjectController::onModelLoaded);
    connect(m_compile, &CompileController::programShown, m_project, &ProjectController::autosave);
    m_unsaved = new UnsavedChanges(this, m_document->undoStack(), m_project);
}

void MainWindow::connectDocument() {
    m_scheduleBar->showTarget(m_document->targetKey());
    m_scheduleBar->showStrategy(m_document->strategy());
    connect(m_scheduleBar, &ScheduleToolBar::targetRequested, m_document,
            &ScheduleDocument::setTarget);
    connect(m_scheduleBar, &ScheduleToolBar::strategyRequested, m_document,
            &ScheduleDocument::setStrategy);
    connect(m_document, &ScheduleDocument::targetChanged, m_scheduleBar,
            &ScheduleToolBar::showTarget);
    connect(m_document, &ScheduleDocument::strategyChanged, m_scheduleBar,
            &ScheduleToolBar::showStrategy);
    connect(m_document, &ScheduleDocument::revisionChanged, this,
            [this] { m_docks.diagnostics->clearSource(Source::Action); });
    connect(m_document, &ScheduleDocument::editRefused, this, &MainWindow::onEditRefused);
    connect(m_document, &ScheduleDocument::problemsReported, this,
            [this](const std::vector<Diagnostic>& diagnostics) {
                m_board->showDiagnostics(diagnostics, {}, {},
                                         {Source::Action, Listing::Replace, Reveal::OnErrors});
            });
    connect(m_document, &ScheduleDocument::statusMessage, m_board, &ActivityBoard::showStatus);
    // A schedule found by search is previewed on the graph until one is chosen.
    connect(
        m_searchDialog, &SearchDialog::previewRequested, this,
        [this](std::shared_ptr<const schedule::Schedule> preview) {
            if (preview && m_document->graph())
                setPartition(partitionOfSchedule(*preview, m_document->graph()->ops.size()), {});
            else
                setPartition(partitionOf(m_document->snapshot()), badgesOf(m_document->snapshot()));
        });
}

void MainWindow::connectRuns() {
    using Emulated = EmulateController;
    using Measured = MeasureController;
    connect(m_emulate, &Emulated::emulated, m_tabs.timeline, &TimelineTab::setEmulation);
    connect(m_emulate, &Emulated::emulated, m_tabs.transfers, &TransfersTab::setEmulation);
    connect(m_measure, &Measured::measured, m_tabs.timeline, &TimelineTab::setMeasurement);
    connect(m_measure, &Measured::measured, m_tabs.transfers, &TransfersTab::setMeasurement);
    connect(m_measure, &Measured::measured, m_tabs.compare, &CompareTab::addHostRun);
    // After a run the machine's speed against the calibration's: a changed one is why a run
    // and its prediction differ, whatever the emulator's model.
    connect(m_measure, &Measured::measured, m_hostCalibration,
            &HostCalibrationController::checkSpeed);
    connect(m_measure, &Measured::measured, m_compile,
            [this](std::shared_ptr<const MeasuredRun> run) {
                m_compile->showRunProgram(run->emulation);
            });
    connect(m_searchDialog, &SearchDialog::searchTimed, m_tabs.compare, &CompareTab::pinSearch);
}

void MainWindow::connectActivities() {
    // What each activity reports, where its diagnostics go and when the dock comes up.
    const struct {
        Activity* activity;
        ActivityBoard::Policy policy;
    } activities[] = {
        {m_tabs.graph->activity(), {Source::Layout, Listing::Append, Reveal::Never}},
        {m_compile->activity(), {Source::Compile, Listing::Replace, Reveal::OnErrors}},
        {m_emulate->activity(), {}},
        {m_measure->activity(), {Source::Action, Listing::Replace, Reveal::Always}},
        {m_export->activity(), {}},
        {m_tabs.timeline->activity(), {Source::Action, Listing::Append, Reveal::Never}},
        {m_tabs.transfers->activity(), {Source::Action, Listing::Replace, Reveal::Always}},
        {m_calibration->activity(), {Source::Action, Listing::Replace, Reveal::Always}},
        {m_hostCalibration->activity(), {Source::Action, Listing::Replace, Reveal::Always}},
        {m_tabs.compare->activity(), {Source::Action, Listing::Append, Reveal::Always}},
        {m_searchDialog->activity(), {}},
        // With the import's: edits clear the Action ones.
        {m_project->activity(), {Source::Import, Listing::Append, Reveal::Always}},
    };
    for (const auto& [activity, policy] : activities)
        m_board->add(activity, policy);

    // Status bar, left to right: progress, the busy indicator, predicted total, schedule and
    // model totals, the host calibration.
    m_scheduleTotals = new QLabel;
    m_scheduleTotals->setObjectName(QStringLiteral("scheduleTotals"));
    m_scheduleTotals->setTextFormat(Qt::RichText);
    m_totals = new QLabel;
    m_totals->setObjectName(QStringLiteral("statusTotals"));
    m_board->addPermanentWidget(m_emulate->progressWidget(), 0);
    m_board->addPermanentWidget(m_compile->progressWidget(), 1);
    m_board->addPermanentWidget(m_emulate->totalLabel());
    m_board->addPermanentWidget(m_scheduleTotals);
    m_board->addPermanentWidget(m_totals);
    m_board->addPermanentWidget(m_hostCalibration->label());
    statusBar()->showMessage(tr("Ready"));
}

void MainWindow::connectSelection() {
    m_tabs.ops->setSelection(m_selection);
    m_tabs.timeline->setSelection(m_selection);
    m_tabs.transfers->setSelection(m_selection);
    auto* listing = new ProgramSelection(m_tabs.program, m_selection, this);
    connect(m_compile, &CompileController::programShown, listing, &ProgramSelection::follow);
    connect(m_tabs.compare->view(), &views::compare::CompareView::blockActivated, m_selection,
            [this](int block) { m_selection->selectBlocks({block}, Selection::Origin::Compare); });
    connect(m_docks.diagnostics, &DiagnosticsPanel::blockActivated, m_editor,
            &ScheduleEditor::showBlock);
    connect(m_docks.diagnostics, &DiagnosticsPanel::opActivated, this, [this](const QString& name) {
        if (const auto op = m_graph ? m_graph->findOp(name.toStdString()) : std::nullopt)
            m_selection->selectOps({*op}, Selection::Origin::Other);
    });
}

void MainWindow::onScheduleSnapshot() {
    const views::schedule::ScheduleSnapshot& snapshot = m_document->snapshot();
    m_docks.showSnapshot(snapshot);
    const RevisionPtr& revision = m_document->revision();
    const std::string_view strategy = schedule::strategyName(revision->strategy);
    m_scheduleTotals->setText(
        totalsText(snapshot, revision->targetName(),
                   QString::fromUtf8(strategy.data(), static_cast<qsizetype>(strategy.size()))));
    if (snapshot.schedule && snapshot.graph == m_graph)
        setPartition(partitionOf(snapshot), badgesOf(snapshot));
}

void MainWindow::onEditRefused(const QString& reason, const std::vector<Diagnostic>& diagnostics) {
    m_board->showStatus(reason, 15000); // the whole reason is in the diagnostics dock too
    DiagnosticsPanel* panel = m_docks.diagnostics;
    if (diagnostics.empty()) {
        panel->clearSource(Source::Action);
        panel->appendInfo(Source::Action, reason, tr("edit"));
    } else {
        panel->setDiagnostics(Source::Action, diagnostics);
    }
    m_board->showDiagnosticsDock();
    if (const int last = panel->topLevelItemCount() - 1; last >= 0)
        panel->scrollToItem(panel->topLevelItem(last));
}

bool MainWindow::isBusy() const {
    return m_board->isBusy();
}

void MainWindow::setImportOptions(model::ImportOptions options) {
    m_importOptions = std::move(options);
}

bool MainWindow::isLoading() const {
    return m_loader->isLoading();
}

void MainWindow::openFile(const QString& path) {
    if (ProjectController::isProjectFile(path)) {
        if (m_project->open(path))
            m_recent->add(path);
        return;
    }
    m_loader->load(path, m_importOptions);
}

bool MainWindow::isLayingOut() const {
    return m_tabs.graph->isLayingOut();
}

void MainWindow::setPartition(std::vector<int> blockOfOp,
                              std::vector<views::graph::BlockBadge> badges) {
    m_tabs.graph->setPartition(std::move(blockOfOp), std::move(badges));
}

QStringList MainWindow::tabNames() {
    return MainTabs::names();
}

QString MainWindow::currentTabName() const {
    return m_tabs.currentName();
}

bool MainWindow::showTab(const QString& name) {
    return m_tabs.show(name);
}

void MainWindow::showOpenDialog() {
    const QString dir =
        m_currentFile.isEmpty() ? QString() : QFileInfo(m_currentFile).absolutePath();
    if (const QString path = askForModelOrProject(this, dir); !path.isEmpty())
        openFile(path);
}

void MainWindow::onLoadStarted(const QString& path) {
    // A layout of the model on screen is no longer worth finishing.
    m_tabs.graph->cancelLayout();
    m_board->busyIndicator()->show();
    m_board->showStatus(tr("Opening %1…").arg(QFileInfo(path).fileName()), 0);
}

void MainWindow::onLoadFinished(const LoadResult& result) {
    const QString fileName = QFileInfo(result.path).fileName();
    m_docks.diagnostics->showImport(result);

    if (result.ok()) {
        const ir::Graph& graph = *result.graph;
        m_currentFile = result.path;
        m_tabs.ops->setGraph(result.graph, result.path);
        m_tabs.welcome->clearError();
        m_tabs.stack->setCurrentWidget(m_tabs.tabs);
        m_graph = result.graph;
        m_tabs.graph->setGraph(result.graph);
        m_document->setGraph(result.graph);
        m_unsaved->setModelPath(result.path);
        setWindowFilePath(result.path);
        m_totals->setText(tr("%1 ops  ·  %2  ·  %3 params")
                              .arg(graph.ops.size())
                              .arg(views::formatFlops(graph.totalFlops()),
                                   views::formatCount(graph.parameterCount)));
        m_board->showStatus(tr("Opened %1 in %2 ms").arg(fileName).arg(result.elapsedMs), 10000);
        m_recent->add(result.path);
    } else {
        const QString reason = result.diagnostics.empty()
                                   ? tr("unknown error")
                                   : QString::fromStdString(result.diagnostics.front().message);
        m_board->showStatus(tr("Could not open %1: %2").arg(fileName, reason), 0);
        m_board->showDiagnosticsDock();
        if (m_tabs.stack->currentWidget() == m_tabs.welcome)
            m_tabs.welcome->showError(fileName, reason);
        if (!QFileInfo::exists(result.path))
            m_recent->remove(result.path);
        // Starting this load cancelled the layout of the model still on screen: redo it.
        if (m_graph && !m_tabs.graph->view()->isShowingGraph())
            m_tabs.graph->setGraph(m_graph);
    }
    emit loadFinished(result.path, result.ok());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!openableFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QStringList files = openableFiles(event->mimeData());
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    openFile(files.front()); // one model per window
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!m_unsaved->confirmClose()) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState());
    settings.setValue(kSplitterKey, m_tabs.ops->saveState());
    m_project->discardRecovery(); // a clean close
    QMainWindow::closeEvent(event);
}

} // namespace strata::gui
