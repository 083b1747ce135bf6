#pragma once
// Strata's main window, the app's composition root: it makes the tabs (shell/MainTabs), the
// docks (shell/MainDocks: schedule table, Diagnostics, Inspector), the schedule document with
// its one Selection, the controllers and the menus (shell/MainMenus), and wires what flows
// between them. Every activity (compile, emulate, run, export, calibrate, projects, layout,
// traces, transfers, compare, search) reports busy state, status and diagnostics through one
// ActivityBoard. Imports run in the background through ModelLoader; the title names the
// project and marks unsaved edits, and closing with them asks (UnsavedChanges).

#include "ir/Graph.h"
#include "model/ImportOptions.h"
#include "shell/MainDocks.h"
#include "shell/MainTabs.h"
#include "views/graph/BlockBadge.h"

#include <QMainWindow>
#include <QStringList>
#include <memory>

class QAction;
class QLabel;

namespace strata::gui {

class ActivityBoard;
class CalibrationController;
class CompileController;
class EmulateController;
class ExportController;
class HeatOverlay;
class HostCalibrationController;
class MeasureController;
class ModelLoader;
class ProjectController;
class RecentFiles;
class RunList;
class ScheduleDocument;
class ScheduleEditor;
class ScheduleToolBar;
class SearchDialog;
class Selection;
class UnsavedChanges;
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
    // Any background job runs (loading, checking, laying out, compiling…) or an activity is busy.
    bool isBusy() const;
    QString currentFile() const { return m_currentFile; }

    // Draws the schedule's fusion blocks on the graph: one block per op (-1 for none; empty:
    // no blocks) with their badges. Lays the graph out again in the background.
    void setPartition(std::vector<int> blockOfOp, std::vector<views::graph::BlockBadge> badges);
    bool isLayingOut() const;

    ScheduleDocument* scheduleDocument() const { return m_document; }
    ScheduleEditor* scheduleEditor() const { return m_editor; }
    Selection* selection() const { return m_selection; }
    ActivityBoard* activityBoard() const { return m_board; }
    views::schedule::ScheduleTableModel* scheduleModel() const { return m_docks.scheduleModel; }
    views::schedule::ScheduleTableView* scheduleTable() const { return m_docks.scheduleTable; }
    DiagnosticsPanel* diagnosticsPanel() const { return m_docks.diagnostics; }
    InspectorDock* inspectorDock() const { return m_docks.inspector; }
    CompileController* compileController() const { return m_compile; }
    EmulateController* emulateController() const { return m_emulate; }
    MeasureController* measureController() const { return m_measure; }
    ExportController* exportController() const { return m_export; }
    ProjectController* projectController() const { return m_project; }
    CalibrationController* calibrationController() const { return m_calibration; }
    HostCalibrationController* hostCalibration() const { return m_hostCalibration; }
    SearchDialog* searchDialog() const { return m_searchDialog; }
    UnsavedChanges* unsavedChanges() const { return m_unsaved; }
    GraphTab* graphTab() const { return m_tabs.graph; }
    TimelineTab* timelineTab() const { return m_tabs.timeline; }
    CompareTab* compareTab() const { return m_tabs.compare; }
    TransfersTab* transfersTab() const { return m_tabs.transfers; }
    views::program::ProgramView* programView() const { return m_tabs.program; }
    views::pipeline::PipelineView* pipelineView() const { return m_tabs.pipeline; }

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
    void createControllers();
    void connectDocument();
    void connectRuns();
    void connectActivities();
    void connectSelection();

    void showOpenDialog();
    void onLoadStarted(const QString& path);
    void onLoadFinished(const LoadResult& result);
    void onScheduleSnapshot();
    void onEditRefused(const QString& reason, const std::vector<Diagnostic>& diagnostics);

    ModelLoader* m_loader = nullptr;
    model::ImportOptions m_importOptions;
    QString m_currentFile;
    std::shared_ptr<const ir::Graph> m_graph;

    MainTabs m_tabs;
    MainDocks m_docks;
    ActivityBoard* m_board = nullptr;
    QLabel* m_totals = nullptr;
    QLabel* m_scheduleTotals = nullptr;
    RecentFiles* m_recent = nullptr;

    ScheduleDocument* m_document = nullptr;
    Selection* m_selection = nullptr;
    ScheduleEditor* m_editor = nullptr;
    ScheduleToolBar* m_scheduleBar = nullptr;
    CompileController* m_compile = nullptr;
    EmulateController* m_emulate = nullptr;
    HeatOverlay* m_heat = nullptr;
    MeasureController* m_measure = nullptr;
    ExportController* m_export = nullptr;
    ProjectController* m_project = nullptr;
    RunList* m_runs = nullptr;
    SearchDialog* m_searchDialog = nullptr;
    CalibrationController* m_calibration = nullptr;
    HostCalibrationController* m_hostCalibration = nullptr;
    UnsavedChanges* m_unsaved = nullptr;
};

} // namespace strata::gui
