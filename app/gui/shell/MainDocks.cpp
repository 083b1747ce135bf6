#include "shell/MainDocks.h"

#include "panels/DiagnosticsPanel.h"
#include "panels/InspectorDock.h"
#include "views/schedule/ScheduleTableModel.h"
#include "views/schedule/ScheduleTableView.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QMainWindow>
#include <QSortFilterProxyModel>

namespace strata::gui {

namespace {

QDockWidget* dock(QMainWindow* window, const QString& title, const char* name, QWidget* content) {
    auto* dock = new QDockWidget(title, window);
    dock->setObjectName(QString::fromLatin1(name));
    dock->setWidget(content);
    dock->setAllowedAreas(Qt::AllDockWidgetAreas);
    return dock;
}

} // namespace

MainDocks buildMainDocks(QMainWindow* window, ScheduleDocument* document, Selection* selection) {
    MainDocks docks;
    docks.scheduleModel = new views::schedule::ScheduleTableModel(window);
    docks.scheduleProxy = new QSortFilterProxyModel(window);
    docks.scheduleProxy->setSourceModel(docks.scheduleModel);
    docks.scheduleProxy->setSortRole(views::schedule::ScheduleTableModel::SortRole);
    auto* table = new views::schedule::ScheduleTableView;
    docks.scheduleTable = table;
    table->setObjectName(QStringLiteral("scheduleTable"));
    table->setModel(docks.scheduleProxy);
    // Execution order until the user sorts by a column; a third click on it goes back.
    table->horizontalHeader()->setSortIndicatorClearable(true);
    table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    table->fitColumns(); // headers sized before there are rows
    docks.scheduleDock = dock(window, QObject::tr("Schedule"), "scheduleDock", table);
    window->addDockWidget(Qt::BottomDockWidgetArea, docks.scheduleDock);
    window->resizeDocks({docks.scheduleDock}, {260}, Qt::Vertical);

    docks.inspector = new InspectorDock(selection, docks.scheduleModel, document, window);
    window->addDockWidget(Qt::RightDockWidgetArea, docks.inspector);
    window->resizeDocks({docks.inspector}, {380}, Qt::Horizontal);

    docks.diagnostics = new DiagnosticsPanel;
    docks.diagnostics->setObjectName(QStringLiteral("diagnosticsList"));
    docks.diagnosticsDock =
        dock(window, QObject::tr("Diagnostics"), "diagnosticsDock", docks.diagnostics);
    // Beside the schedule table: the table's errors and the full messages side by side.
    window->splitDockWidget(docks.scheduleDock, docks.diagnosticsDock, Qt::Horizontal);
    window->resizeDocks({docks.scheduleDock, docks.diagnosticsDock}, {1150, 450}, Qt::Horizontal);
    QObject::connect(
        docks.diagnostics, &DiagnosticsPanel::countsChanged, docks.diagnosticsDock,
        [docks] { docks.diagnosticsDock->setWindowTitle(docks.diagnostics->title()); });
    return docks;
}

void MainDocks::showSnapshot(const views::schedule::ScheduleSnapshot& snapshot) {
    scheduleModel->setSnapshot(snapshot);
    if (snapshot.graph != fittedFor && snapshot.schedule) {
        scheduleTable->fitColumns(); // once per model: later resets keep the user's widths
        fittedFor = snapshot.graph;
    }
    diagnostics->setDiagnostics(DiagnosticsPanel::Source::Schedule,
                                snapshot.check ? snapshot.check->diagnostics
                                               : std::vector<Diagnostic>{});
}

} // namespace strata::gui
