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
#include "views/graph/GraphScene.h"
#include "views/graph/GraphView.h"
#include "views/pipeline/PipelineView.h"
#include "views/program/ProgramView.h"
#include "views/schedule/ScheduleTableModel.h"
#include "views/schedule/ScheduleTableView.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QUndoStack>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>

namespace strata::gui {

namespace {

const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
const QString kSplitterKey = QStringLiteral("mainWindow/splitter");

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

// The local .onnx and .strata files among dropped URLs.
QStringList onnxFiles(const QMimeData* mime) {
    QStringList files;
    if (!mime || !mime->hasUrls())
        return files;
    for (const QUrl& url : mime->urls()) {
        const QString path = url.toLocalFile();
        if (!path.isEmpty() && (path.endsWith(QLatin1String(".onnx"), Qt::CaseInsensitive) ||
                                ProjectController::isProjectFile(path)))
            files << path;
    }
    return files;
}

} // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(QStringLiteral("Strata"));
    setAcceptDrops(true);
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    m_loader = new ModelLoader(this);
    connect(m_loader, &ModelLoader::started, this,
            [this](std::uint64_t, const QString& path) { onLoadStarted(path); });
    connect(m_loader, &ModelLoader::finished, this, &MainWindow::onLoadFinished);

    m_opsTab = new OpsTab;

    m_graphTab = new GraphTab;
    m_graphTab->setObjectName(QStringLiteral("graphTab"));
    connect(m_graphTab, &GraphTab::diagnosticsReported, this,
            [this](const std::vector<Diagnostic>& diagnostics) {
                m_diagnostics->appendDiagnostics(DiagnosticsPanel::Source::Layout, diagnostics);
            });
    connect(m_graphTab, &GraphTab::statusMessage, this, &MainWindow::showStatus);
    connect(m_graphTab, &GraphTab::layoutFinished, this, &MainWindow::graphLayoutFinished);

    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("centralTabs"));
    m_tabs->setDocumentMode(true);
    m_programView = new views::program::ProgramView;
    m_programView->setObjectName(QStringLiteral("programTab"));
    m_pipelineView = new views::pipeline::PipelineView;
    m_pipelineView->setObjectName(QStringLiteral("pipelineTab"));
    // In the order of tabNames().
    m_tabs->addTab(m_graphTab, tr("Graph"));
    m_tabs->addTab(m_programView, tr("Program"));
    m_tabs->addTab(m_pipelineView, tr("Pipeline"));
    m_tabs->addTab(m_opsTab, tr("Ops"));
    m_timelineTab = new TimelineTab;
    m_timelineTab->setObjectName(QStringLiteral("timelineTab"));
    m_tabs->addTab(m_timelineTab, tr("Timeline"));
    m_transfersTab = new TransfersTab;
    m_transfersTab->setObjectName(QStringLiteral("transfersTab"));
    m_tabs->addTab(m_transfersTab, tr("Transfers"));

    m_stack = new QStackedWidget;
    m_stack->setObjectName(QStringLiteral("centralStack"));
    m_placeholder = new WelcomePage;
    connect(m_placeholder, &WelcomePage::openRequested, this, &MainWindow::showOpenDialog);
    m_stack->addWidget(m_placeholder);
    m_stack->addWidget(m_tabs);
    setCentralWidget(m_stack);

    m_document = new ScheduleDocument(this);
    m_selection = new Selection(m_document, this);
    m_opsTab->setSelection(m_selection);

    createActions();
    createMenus();
    createScheduleDock();
    createDiagnosticsDock();
    createStatusBar();
    connectSchedule();
    connectCompile();
    connectEmulate();
    connectMeasure();
    connectTimeline();
    connectCompare();
    connectTransfers();
    connectProject();

    QSettings settings;
    restoreGeometry(settings.value(kGeometryKey).toByteArray());
    restoreState(settings.value(kStateKey).toByteArray());
    m_opsTab->restoreState(settings.value(kSplitterKey).toByteArray());
}

MainWindow::~MainWindow() {
    // The children's jobs end as they go: the half-gone window must not hear of it.
    disconnect(&JobRunner::instance(), nullptr, this, nullptr);
}

void MainWindow::createActions() {
    m_openAction = new QAction(tr("&Open…"), this);
    m_openAction->setShortcut(QKeySequence::Open);
    m_openAction->setStatusTip(tr("Open an ONNX model"));
    connect(m_openAction, &QAction::triggered, this, &MainWindow::showOpenDialog);

    m_quitAction = new QAction(tr("&Quit"), this);
    m_quitAction->setShortcut(QKeySequence::Quit);
    m_quitAction->setMenuRole(QAction::QuitRole);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);

    m_aboutAction = new QAction(tr("&About Strata"), this);
    m_aboutAction->setMenuRole(QAction::AboutRole);
    connect(m_aboutAction, &QAction::triggered, this, &MainWindow::showAbout);
}

void MainWindow::createMenus() {
    m_fileMenu = menuBar()->addMenu(tr("&File"));
    m_fileMenu->addAction(m_openAction);
    m_fileMenu->addAction(m_timelineTab->openTraceAction());
    m_recentMenu = m_fileMenu->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    m_recent = new RecentFiles(m_recentMenu, this);
    connect(m_recent, &RecentFiles::openRequested, this, &MainWindow::openFile);
    m_fileMenu->addSeparator();
    m_fileMenu->addAction(m_quitAction);

    m_editMenu = menuBar()->addMenu(tr("&Edit"));
    m_viewMenu = menuBar()->addMenu(tr("&View"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_aboutAction);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::createDiagnosticsDock() {
    m_diagnostics = new DiagnosticsPanel;
    m_diagnostics->setObjectName(QStringLiteral("diagnosticsList"));
    m_diagnosticsDock = new QDockWidget(tr("Diagnostics"), this);
    m_diagnosticsDock->setObjectName(QStringLiteral("diagnosticsDock"));
    m_diagnosticsDock->setWidget(m_diagnostics);
    m_diagnosticsDock->setAllowedAreas(Qt::AllDockWidgetAreas);
    // Beside the schedule table: the table's errors and the full messages side by side.
    splitDockWidget(m_scheduleDock, m_diagnosticsDock, Qt::Horizontal);
    resizeDocks({m_scheduleDock, m_diagnosticsDock}, {1150, 450}, Qt::Horizontal);
    m_viewMenu->addAction(m_diagnosticsDock->toggleViewAction());
    connect(m_diagnostics, &DiagnosticsPanel::countsChanged, this,
            [this] { m_diagnosticsDock->setWindowTitle(m_diagnostics->title()); });
    connect(m_diagnostics, &DiagnosticsPanel::blockActivated, this,
            [this](int block) { m_editor->showBlock(block); });
    connect(m_diagnostics, &DiagnosticsPanel::opActivated, this, &MainWindow::showOpByName);
}

void MainWindow::createScheduleDock() {
    m_scheduleModel = new views::schedule::ScheduleTableModel(this);
    m_scheduleProxy = new QSortFilterProxyModel(this);
    m_scheduleProxy->setSourceModel(m_scheduleModel);
    m_scheduleProxy->setSortRole(views::schedule::ScheduleTableModel::SortRole);
    m_scheduleTable = new views::schedule::ScheduleTableView;
    m_scheduleTable->setObjectName(QStringLiteral("scheduleTable"));
    m_scheduleTable->setModel(m_scheduleProxy);
    // Execution order until the user sorts by a column; a third click on it goes back.
    m_scheduleTable->horizontalHeader()->setSortIndicatorClearable(true);
    m_scheduleTable->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_scheduleTable->fitColumns(); // headers sized before there are rows

    m_scheduleDock = new QDockWidget(tr("Schedule"), this);
    m_scheduleDock->setObjectName(QStringLiteral("scheduleDock"));
    m_scheduleDock->setWidget(m_scheduleTable);
    m_scheduleDock->setAllowedAreas(Qt::AllDockWidgetAreas);
    addDockWidget(Qt::BottomDockWidgetArea, m_scheduleDock);
    resizeDocks({m_scheduleDock}, {260}, Qt::Vertical);
    m_viewMenu->addAction(m_scheduleDock->toggleViewAction());
    m_inspector = new InspectorDock(m_selection, m_scheduleModel, m_document, this);
    addDockWidget(Qt::RightDockWidgetArea, m_inspector);
    resizeDocks({m_inspector}, {380}, Qt::Horizontal);
    m_viewMenu->addAction(m_inspector->toggleViewAction());
}

void MainWindow::createStatusBar() {
    m_busy = new QProgressBar;
    m_busy->setObjectName(QStringLiteral("busyIndicator"));
    m_busy->setRange(0, 0); // indeterminate: the importer reports no progress
    m_busy->setMaximumWidth(140);
    m_busy->setMaximumHeight(statusBar()->fontMetrics().height() + 2);
    m_busy->setTextVisible(false);
    m_busy->hide();
    m_totals = new QLabel;
    m_totals->setObjectName(QStringLiteral("statusTotals"));
    m_scheduleTotals = new QLabel;
    m_scheduleTotals->setObjectName(QStringLiteral("scheduleTotals"));
    m_scheduleTotals->setTextFormat(Qt::RichText);
    statusBar()->addPermanentWidget(m_busy);
    statusBar()->addPermanentWidget(m_scheduleTotals);
    statusBar()->addPermanentWidget(m_totals);
    statusBar()->showMessage(tr("Ready"));
    // Every background job goes through the runner: its busy state is the window's.
    connect(&JobRunner::instance(), &JobRunner::busyChanged, this, &MainWindow::updateBusy);
}

void MainWindow::connectSchedule() {
    m_editor = new ScheduleEditor(m_document, m_selection, m_graphTab->view(), m_scheduleTable,
                                  m_scheduleModel, this);
    m_editMenu->addAction(m_editor->undoAction());
    m_editMenu->addAction(m_editor->redoAction());
    m_editMenu->addSeparator();
    m_editMenu->addAction(m_editor->fuseAction());
    m_editMenu->addAction(m_editor->splitAction());

    m_scheduleBar = new ScheduleToolBar(this);
    m_scheduleBar->addUndoRedo(m_document->undoStack());
    m_scheduleBar->addSeparator();
    m_scheduleBar->addAction(m_editor->fuseAction());
    m_scheduleBar->addAction(m_editor->splitAction());
    addToolBar(Qt::TopToolBarArea, m_scheduleBar);
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
    connect(m_document, &ScheduleDocument::snapshotChanged, this, &MainWindow::onScheduleSnapshot);
    connect(m_document, &ScheduleDocument::revisionChanged, this,
            [this] { m_diagnostics->clearSource(DiagnosticsPanel::Source::Action); });
    connect(m_document, &ScheduleDocument::editRefused, this, &MainWindow::onEditRefused);
    connect(m_document, &ScheduleDocument::problemsReported, this,
            [this](const std::vector<Diagnostic>& diagnostics) {
                m_diagnostics->setDiagnostics(DiagnosticsPanel::Source::Action, diagnostics);
                if (hasErrors(diagnostics)) {
                    showDiagnosticsDock();
                }
            });
    connect(m_document, &ScheduleDocument::statusMessage, this, &MainWindow::showStatus);
}

void MainWindow::connectCompile() {
    m_compile = new CompileController(m_document, m_programView, m_pipelineView, this);
    auto* listing = new ProgramSelection(m_programView, m_selection, this);
    connect(m_compile, &CompileController::programShown, listing, &ProgramSelection::follow);
    m_scheduleBar->addSeparator();
    m_scheduleBar->addAction(m_compile->compileAction());
    m_buildMenu = new QMenu(tr("&Build"), this);
    m_buildMenu->addAction(m_compile->compileAction());
    m_buildMenu->addAction(m_compile->cancelAction());
    menuBar()->insertMenu(m_viewMenu->menuAction(), m_buildMenu);
    statusBar()->insertPermanentWidget(0, m_compile->progressWidget());
    connect(m_compile, &CompileController::statusMessage, this, &MainWindow::showStatus);
    connect(m_compile, &CompileController::diagnosticsReported, this,
            [this](const std::vector<Diagnostic>& diagnostics, const QString& summary) {
                m_diagnostics->setDiagnostics(DiagnosticsPanel::Source::Compile, diagnostics);
                if (!summary.isEmpty())
                    m_diagnostics->appendInfo(DiagnosticsPanel::Source::Compile, summary,
                                              tr("compile"));
                if (hasErrors(diagnostics)) {
                    showDiagnosticsDock();
                }
            });
}

void MainWindow::connectEmulate() {
    m_emulate = new EmulateController(m_document, m_graphTab, m_scheduleModel, this);
    m_heat = new HeatOverlay(m_graphTab->view(), m_document, m_emulate, this);
    m_scheduleBar->addAction(m_emulate->emulateAction());
    m_buildMenu->addSeparator();
    m_buildMenu->addAction(m_emulate->emulateAction());
    m_buildMenu->addAction(m_emulate->cancelAction());
    m_buildMenu->addAction(m_emulate->autoAction());
    statusBar()->insertPermanentWidget(0, m_emulate->progressWidget());
    statusBar()->insertPermanentWidget(3, m_emulate->totalLabel()); // before the schedule's totals
    connect(m_emulate, &EmulateController::statusMessage, this, &MainWindow::showStatus);
}

void MainWindow::connectMeasure() {
    m_measure = new MeasureController(m_document, this);
    m_heat->setMeasureController(m_measure);
    m_measure->setScheduleTable(m_scheduleModel);
    m_scheduleBar->addAction(m_measure->runAction());
    m_buildMenu->addSeparator();
    m_buildMenu->addAction(m_measure->runAction());
    m_buildMenu->addAction(m_measure->cancelAction());
    connect(m_measure, &MeasureController::measured, m_compile,
            [this](std::shared_ptr<const MeasuredRun> run) {
                m_compile->showRunProgram(run->emulation);
            });
    connect(m_measure, &MeasureController::statusMessage, this, &MainWindow::showStatus);
    connect(m_measure, &MeasureController::diagnosticsReported, this,
            [this](const std::vector<Diagnostic>& diagnostics, const QString& summary) {
                m_diagnostics->setDiagnostics(DiagnosticsPanel::Source::Action, diagnostics);
                m_diagnostics->appendInfo(DiagnosticsPanel::Source::Action, summary, tr("run"));
                showDiagnosticsDock();
            });

    m_export = new ExportController(m_document, m_emulate, m_measure, this);
    m_fileMenu->insertAction(m_quitAction, m_export->exportAction());
    connect(m_export, &ExportController::statusMessage, this, &MainWindow::showStatus);
}

void MainWindow::connectTimeline() {
    m_timelineTab->setDocument(m_document);
    connect(m_emulate, &EmulateController::emulated, m_timelineTab, &TimelineTab::setEmulation);
    connect(m_measure, &MeasureController::measured, m_timelineTab, &TimelineTab::setMeasurement);
    m_timelineTab->setSelection(m_selection);
    connect(m_timelineTab, &TimelineTab::diagnosticsReported, this,
            [this](const std::vector<Diagnostic>& diagnostics) {
                m_diagnostics->appendDiagnostics(DiagnosticsPanel::Source::Action, diagnostics);
            });
    connect(m_timelineTab, &TimelineTab::statusMessage, this, &MainWindow::showStatus);
}

void MainWindow::connectTransfers() {
    m_transfersTab->setDocument(m_document);
    connect(m_emulate, &EmulateController::emulated, m_transfersTab, &TransfersTab::setEmulation);
    connect(m_measure, &MeasureController::measured, m_transfersTab, &TransfersTab::setMeasurement);
    m_transfersTab->setSelection(m_selection);
    m_calibration = new CalibrationController(m_document, this);
    m_buildMenu->addAction(m_calibration->calibrateAction());
    m_transfersTab->setCalibrateAction(m_calibration->calibrateAction());
    auto status = &MainWindow::showStatus;
    auto report = [this](const std::vector<Diagnostic>& diagnostics, const QString& summary) {
        m_diagnostics->setDiagnostics(DiagnosticsPanel::Source::Action, diagnostics);
        m_diagnostics->appendInfo(DiagnosticsPanel::Source::Action, summary, tr("transfers"));
        showDiagnosticsDock();
    };
    connect(m_transfersTab, &TransfersTab::statusMessage, this, status);
    connect(m_transfersTab, &TransfersTab::diagnosticsReported, this, report);
    connect(m_calibration, &CalibrationController::statusMessage, this, status);
    connect(m_calibration, &CalibrationController::diagnosticsReported, this, report);
    m_hostCalibration = new HostCalibrationController(m_document, this);
    m_buildMenu->addAction(m_hostCalibration->recalibrateAction());
    statusBar()->addPermanentWidget(m_hostCalibration->label());
    connect(m_hostCalibration, &HostCalibrationController::statusMessage, this, status);
    connect(m_hostCalibration, &HostCalibrationController::diagnosticsReported, this, report);
    QTimer::singleShot(0, m_hostCalibration, &HostCalibrationController::checkAtStart);
}

void MainWindow::connectCompare() {
    m_runs = new RunList(this);
    m_compareTab = new CompareTab(m_runs, m_document, m_emulate);
    m_compareTab->setObjectName(QStringLiteral("compareTab"));
    m_tabs->addTab(m_compareTab, tr("Compare")); // after the tabs added in the constructor
    m_fileMenu->insertAction(m_recentMenu->menuAction(), m_compareTab->importAction());
    m_buildMenu->addSeparator();
    m_buildMenu->addAction(m_compareTab->pinAction());
    // Build > Search Schedules… (SearchDialog); a chosen schedule is previewed on the graph.
    m_searchDialog = new SearchDialog(m_document, this);
    m_buildMenu->addAction(m_searchDialog->showAction());
    connect(m_searchDialog, &SearchDialog::statusMessage, this, &MainWindow::showStatus);
    connect(m_searchDialog, &SearchDialog::searchTimed, m_compareTab, &CompareTab::pinSearch);
    connect(
        m_searchDialog, &SearchDialog::previewRequested, this,
        [this](std::shared_ptr<const schedule::Schedule> preview) {
            if (preview && m_document->graph())
                setPartition(partitionOfSchedule(*preview, m_document->graph()->ops.size()), {});
            else
                setPartition(partitionOf(m_document->snapshot()), badgesOf(m_document->snapshot()));
        });
    connect(m_measure, &MeasureController::measured, m_compareTab, &CompareTab::addHostRun);
    connect(m_compareTab, &CompareTab::statusMessage, this, &MainWindow::showStatus);
    connect(m_compareTab->view(), &views::compare::CompareView::blockActivated, m_selection,
            [this](int block) { m_selection->selectBlocks({block}, Selection::Origin::Compare); });
    connect(m_compareTab, &CompareTab::diagnosticsReported, this,
            [this](const std::vector<Diagnostic>& diagnostics) {
                m_diagnostics->appendDiagnostics(DiagnosticsPanel::Source::Action, diagnostics);
                showDiagnosticsDock();
            });
}

void MainWindow::connectProject() {
    ProjectParts parts;
    parts.window = this;
    parts.document = m_document;
    parts.graph = m_graphTab;
    parts.emulate = m_emulate;
    parts.measure = m_measure;
    parts.timeline = m_timelineTab;
    parts.compare = m_compareTab;
    parts.currentFile = [this] { return m_currentFile; };
    parts.openModel = [this](const QString& path) { openFile(path); };
    parts.currentTab = [this] { return currentTabName(); };
    parts.showTab = [this](const QString& name) { return showTab(name); };
    m_project = new ProjectController(std::move(parts));
    connect(this, &MainWindow::loadFinished, m_project, &ProjectController::onModelLoaded);
    m_unsaved = new UnsavedChanges(this, m_document->undoStack(), m_project);
    m_fileMenu->insertActions(m_quitAction, {m_project->saveAction(), m_project->saveAsAction()});
    m_fileMenu->insertSeparator(m_quitAction);
    connect(m_compile, &CompileController::programShown, m_project, &ProjectController::autosave);
    connect(m_project, &ProjectController::problemsReported, this,
            [this](const std::vector<Diagnostic>& diagnostics) {
                // With the import's: edits clear the Action ones.
                m_diagnostics->appendDiagnostics(DiagnosticsPanel::Source::Import, diagnostics);
                showDiagnosticsDock();
            });
    connect(m_project, &ProjectController::statusMessage, this, &MainWindow::showStatus);
}

void MainWindow::onScheduleSnapshot() {
    const views::schedule::ScheduleSnapshot& snapshot = m_document->snapshot();
    m_scheduleModel->setSnapshot(snapshot);
    if (snapshot.graph != m_fittedFor && snapshot.schedule) {
        m_scheduleTable->fitColumns(); // once per model: later resets keep the user's widths
        m_fittedFor = snapshot.graph;
    }
    m_diagnostics->setDiagnostics(DiagnosticsPanel::Source::Schedule,
                                  snapshot.check ? snapshot.check->diagnostics
                                                 : std::vector<Diagnostic>{});
    const RevisionPtr& revision = m_document->revision();
    const std::string_view strategy = schedule::strategyName(revision->strategy);
    m_scheduleTotals->setText(
        totalsText(snapshot, revision->targetName(),
                   QString::fromUtf8(strategy.data(), static_cast<qsizetype>(strategy.size()))));
    if (snapshot.schedule && snapshot.graph == m_graph)
        setPartition(partitionOf(snapshot), badgesOf(snapshot));
}

void MainWindow::showStatus(const QString& text, int timeoutMs) {
    // Elided to the room the permanent widgets leave; the whole text is the tooltip.
    const int room = statusBar()->width() - m_scheduleTotals->width() - m_totals->width() -
                     (m_emulate ? m_emulate->totalLabel()->width() : 0) - 60;
    const QString shown =
        statusBar()->fontMetrics().elidedText(text, Qt::ElideRight, std::max(room, 200));
    statusBar()->setToolTip(shown == text ? QString() : text);
    statusBar()->showMessage(shown, timeoutMs);
}

void MainWindow::onEditRefused(const QString& reason, const std::vector<Diagnostic>& diagnostics) {
    showStatus(reason, 15000); // the whole reason is in the diagnostics dock too
    if (diagnostics.empty()) {
        m_diagnostics->clearSource(DiagnosticsPanel::Source::Action);
        m_diagnostics->appendInfo(DiagnosticsPanel::Source::Action, reason, tr("edit"));
    } else {
        m_diagnostics->setDiagnostics(DiagnosticsPanel::Source::Action, diagnostics);
    }
    showDiagnosticsDock();
    const int last = m_diagnostics->topLevelItemCount() - 1;
    if (last >= 0)
        m_diagnostics->scrollToItem(m_diagnostics->topLevelItem(last));
}

void MainWindow::showDiagnosticsDock() {
    m_diagnosticsDock->show();
    m_diagnosticsDock->raise();
}

void MainWindow::showOpByName(const QString& name) {
    if (!m_graph)
        return;
    if (const auto op = m_graph->findOp(name.toStdString()))
        m_selection->selectOps({*op}, Selection::Origin::Other);
}

void MainWindow::updateBusy() {
    m_busy->setVisible(isBusy());
}

bool MainWindow::isBusy() const {
    return JobRunner::instance().isBusy();
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
    return m_graphTab->isLayingOut();
}

void MainWindow::setPartition(std::vector<int> blockOfOp,
                              std::vector<views::graph::BlockBadge> badges) {
    m_graphTab->setPartition(std::move(blockOfOp), std::move(badges));
}

QStringList MainWindow::tabNames() {
    return {QStringLiteral("graph"),  QStringLiteral("program"),  QStringLiteral("pipeline"),
            QStringLiteral("ops"),    QStringLiteral("timeline"), QStringLiteral("transfers"),
            QStringLiteral("compare")};
}

QString MainWindow::currentTabName() const {
    return tabNames().value(m_tabs->currentIndex());
}

bool MainWindow::showTab(const QString& name) {
    const int index = static_cast<int>(tabNames().indexOf(name.toLower()));
    if (index < 0)
        return false;
    m_tabs->setCurrentIndex(index);
    return true;
}

void MainWindow::showOpenDialog() {
    QString dir;
    if (!m_currentFile.isEmpty())
        dir = QFileInfo(m_currentFile).absolutePath();
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open Model or Project"), dir,
        tr("Models and projects (*.onnx *.strata);;ONNX models (*.onnx);;Strata projects "
           "(*.strata);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About Strata"),
        tr("<h3>Strata %1</h3>"
           "<p>A profiler and visual compiler explorer for deep-learning accelerators.</p>"
           "<p>Open an ONNX model to see its ops with their shapes, FLOPs and memory traffic.</p>"
           "<p>Built with Qt %2.</p>")
            .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

void MainWindow::onLoadStarted(const QString& path) {
    // A layout of the model on screen is no longer worth finishing.
    m_graphTab->cancelLayout();
    m_busy->show();
    showStatus(tr("Opening %1…").arg(QFileInfo(path).fileName()), 0);
}

void MainWindow::onLoadFinished(const LoadResult& result) {
    const QString fileName = QFileInfo(result.path).fileName();
    showDiagnostics(result);

    if (result.ok()) {
        const ir::Graph& graph = *result.graph;
        m_currentFile = result.path;
        m_opsTab->setGraph(result.graph, result.path);
        m_placeholder->clearError();
        m_stack->setCurrentWidget(m_tabs);
        m_graph = result.graph;
        m_graphTab->setGraph(result.graph);
        m_document->setGraph(result.graph);
        m_unsaved->setModelPath(result.path);
        setWindowFilePath(result.path);
        m_totals->setText(tr("%1 ops  ·  %2  ·  %3 params")
                              .arg(graph.ops.size())
                              .arg(views::formatFlops(graph.totalFlops()),
                                   views::formatCount(graph.parameterCount)));
        showStatus(tr("Opened %1 in %2 ms").arg(fileName).arg(result.elapsedMs), 10000);
        m_recent->add(result.path);
    } else {
        const QString reason = result.diagnostics.empty()
                                   ? tr("unknown error")
                                   : fromStd(result.diagnostics.front().message);
        showStatus(tr("Could not open %1: %2").arg(fileName, reason), 0);
        showDiagnosticsDock();
        if (m_stack->currentWidget() == m_placeholder)
            m_placeholder->showError(fileName, reason);
        if (!QFileInfo::exists(result.path))
            m_recent->remove(result.path);
        // Starting this load cancelled the layout of the model still on screen: redo it.
        if (m_graph && !m_graphTab->view()->isShowingGraph())
            m_graphTab->setGraph(m_graph);
    }
    emit loadFinished(result.path, result.ok());
}

void MainWindow::showDiagnostics(const LoadResult& result) {
    if (!result.ok()) {
        // The model on screen stays, and with it its schedule's diagnostics.
        m_diagnostics->setDiagnostics(DiagnosticsPanel::Source::Import, result.diagnostics);
        return;
    }
    m_diagnostics->clear();
    m_diagnostics->setDiagnostics(DiagnosticsPanel::Source::Import, result.diagnostics);
    // Close the log with what was imported, so an import without warnings still says so.
    int warnings = 0;
    for (const Diagnostic& d : result.diagnostics)
        warnings += d.severity == Severity::Warning ? 1 : 0;
    const QFileInfo info(result.path);
    m_diagnostics->appendInfo(DiagnosticsPanel::Source::Import,
                              tr("Imported %1: %2 ops, %3 values, %4 warnings, %5 ms")
                                  .arg(info.fileName())
                                  .arg(result.graph->ops.size())
                                  .arg(result.graph->values.size())
                                  .arg(warnings)
                                  .arg(result.elapsedMs),
                              info.fileName());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!onnxFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QStringList files = onnxFiles(event->mimeData());
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
    settings.setValue(kSplitterKey, m_opsTab->saveState());
    m_project->discardRecovery(); // a clean close
    QMainWindow::closeEvent(event);
}

} // namespace strata::gui
