#pragma once
// Strata's main window: central tabs (the graph, laid out in the background by GraphTab; the
// compiled program's listing and its compiler passes, compiled in the background by the
// CompileController; the ops: model summary and op table side by side), the schedule table
// and the diagnostics in docks, the target and strategy selectors and Compile in a toolbar. Imports
// run in the background through ModelLoader, schedules through the ScheduleDocument, edits through
// the ScheduleEditor. Every tab and panel that selects shares one Selection: an op selected in the
// graph selects its row in the op table and its block's row in the schedule table, highlights its
// instructions in the listing and shows in the Inspector dock, and back; the title
// names the project and marks unsaved edits, and closing with them asks (UnsavedChanges).

#include "base/Diagnostic.h"
#include "ir/Graph.h"
#include "model/ImportOptions.h"
#include "views/graph/BlockBadge.h"

#include <QMainWindow>
#include <QStringList>
#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QSortFilterProxyModel;
class QSplitter;
class QStackedWidget;
class QTabWidget;

namespace strata::views::schedule {
class ScheduleTableModel;
class ScheduleTableView;
} // namespace strata::views::schedule
namespace strata::views::program {
class ProgramView;
}
namespace strata::views::pipeline {
class PipelineView;
}

namespace strata::gui {

class CompileController;
class EmulateController;
class ExportController;
class HeatOverlay;
class MeasureController;
class ProjectController;
class TimelineTab;
class CompareTab;
class RunList;
class TransfersTab;
class CalibrationController;
class HostCalibrationController;
class DiagnosticsPanel;
class GraphTab;
class OpsTab;
class Selection;
class ModelLoader;
class ScheduleDocument;
class ScheduleEditor;
class ScheduleToolBar;
class SearchDialog;
class InspectorDock;
class RecentFiles;
class UnsavedChanges;
class WelcomePage;
struct LoadResult;

class MainWindow : public QMainWindow {
    Q_OBJECT

  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Options for every following import (e.g. --input-shape from the command line).
    void setImportOptions(model::ImportOptions options);

    // Starts importing `path` in the background; loadFinished() reports the outcome. A failed
    // import keeps the model that was shown before.
    void openFile(const QString& path);

    bool isLoading() const;
    ModelLoader* modelLoader() const { return m_loader; }
    // Any background job runs (loading, checking, laying out, compiling…): the JobRunner's state.
    bool isBusy() const;
    QString currentFile() const { return m_currentFile; }

    // Draws the schedule's fusion blocks on the graph: one block per op (-1 for none; empty:
    // no blocks) with their badges. Lays the graph out again in the background.
    void setPartition(std::vector<int> blockOfOp, std::vector<views::graph::BlockBadge> badges);
    GraphTab* graphTab() const { return m_graphTab; }
    bool isLayingOut() const;
    ScheduleDocument* scheduleDocument() const { return m_document; }
    ScheduleEditor* scheduleEditor() const { return m_editor; }
    Selection* selection() const { return m_selection; }
    views::schedule::ScheduleTableModel* scheduleModel() const { return m_scheduleModel; }
    views::schedule::ScheduleTableView* scheduleTable() const { return m_scheduleTable; }
    DiagnosticsPanel* diagnosticsPanel() const { return m_diagnostics; }
    CompileController* compileController() const { return m_compile; }
    EmulateController* emulateController() const { return m_emulate; }
    MeasureController* measureController() const { return m_measure; }
    ExportController* exportController() const { return m_export; }
    ProjectController* projectController() const { return m_project; }
    TimelineTab* timelineTab() const { return m_timelineTab; }
    CompareTab* compareTab() const { return m_compareTab; }
    SearchDialog* searchDialog() const { return m_searchDialog; }
    TransfersTab* transfersTab() const { return m_transfersTab; }
    CalibrationController* calibrationController() const { return m_calibration; }
    HostCalibrationController* hostCalibration() const { return m_hostCalibration; }
    InspectorDock* inspectorDock() const { return m_inspector; }
    UnsavedChanges* unsavedChanges() const { return m_unsaved; }
    views::program::ProgramView* programView() const { return m_programView; }
    views::pipeline::PipelineView* pipelineView() const { return m_pipelineView; }

    // Central tabs by name, for --tab: "graph", "program", "pipeline", "ops", "timeline",
    // "transfers", "compare".
    static QStringList tabNames();
    // Shows the tab called `name`; false if there is none.
    bool showTab(const QString& name);
    // The name (tabNames()) of the central tab shown.
    QString currentTabName() const;

  signals:
    void loadFinished(const QString& path, bool ok);
    // After every layout attempt of the graph tab.
    void graphLayoutFinished(bool ok);

  protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

  private:
    void createActions();
    void createMenus();
    void createDiagnosticsDock();
    void createScheduleDock();
    void createStatusBar();
    void connectSchedule();
    void connectCompile();
    void connectEmulate();
    void connectMeasure();
    void connectProject();
    void connectTimeline();
    void connectCompare();
    void connectTransfers();

    void showOpenDialog();
    void showAbout();
    void onLoadStarted(const QString& path);
    void onLoadFinished(const LoadResult& result);
    void showDiagnostics(const LoadResult& result);
    void onScheduleSnapshot();
    // Shows `text` in the status bar, elided to its room with the whole text as tooltip.
    void showStatus(const QString& text, int timeoutMs);
    void onEditRefused(const QString& reason, const std::vector<Diagnostic>& diagnostics);
    void showOpByName(const QString& name);
    void showDiagnosticsDock();
    void updateBusy();

    ModelLoader* m_loader = nullptr;
    model::ImportOptions m_importOptions;
    QString m_currentFile;
    std::shared_ptr<const ir::Graph> m_graph;

    QStackedWidget* m_stack = nullptr;
    QTabWidget* m_tabs = nullptr;
    GraphTab* m_graphTab = nullptr;
    OpsTab* m_opsTab = nullptr;
    WelcomePage* m_placeholder = nullptr;
    DiagnosticsPanel* m_diagnostics = nullptr;
    QDockWidget* m_diagnosticsDock = nullptr;
    QProgressBar* m_busy = nullptr;
    QLabel* m_totals = nullptr;
    QLabel* m_scheduleTotals = nullptr;

    ScheduleDocument* m_document = nullptr;
    ScheduleEditor* m_editor = nullptr;
    ScheduleToolBar* m_scheduleBar = nullptr;
    views::program::ProgramView* m_programView = nullptr;
    views::pipeline::PipelineView* m_pipelineView = nullptr;
    CompileController* m_compile = nullptr;
    EmulateController* m_emulate = nullptr;
    HeatOverlay* m_heat = nullptr;
    MeasureController* m_measure = nullptr;
    ExportController* m_export = nullptr;
    ProjectController* m_project = nullptr;
    TimelineTab* m_timelineTab = nullptr;
    CompareTab* m_compareTab = nullptr;
    RunList* m_runs = nullptr;
    SearchDialog* m_searchDialog = nullptr;
    TransfersTab* m_transfersTab = nullptr;
    CalibrationController* m_calibration = nullptr;
    HostCalibrationController* m_hostCalibration = nullptr;
    QMenu* m_buildMenu = nullptr;
    Selection* m_selection = nullptr;
    views::schedule::ScheduleTableModel* m_scheduleModel = nullptr;
    QSortFilterProxyModel* m_scheduleProxy = nullptr;
    views::schedule::ScheduleTableView* m_scheduleTable = nullptr;
    QDockWidget* m_scheduleDock = nullptr;
    std::shared_ptr<const ir::Graph> m_fittedFor; // the graph the schedule columns were fitted to

    QAction* m_openAction = nullptr;
    QAction* m_quitAction = nullptr;
    QAction* m_aboutAction = nullptr;
    QMenu* m_fileMenu = nullptr;
    QMenu* m_recentMenu = nullptr;
    RecentFiles* m_recent = nullptr;
    InspectorDock* m_inspector = nullptr;
    UnsavedChanges* m_unsaved = nullptr;
    QMenu* m_editMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
};

} // namespace strata::gui
