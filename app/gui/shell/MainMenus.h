#pragma once
// The menu bar and the schedule toolbar's buttons: which action goes in which menu, in one
// place. The actions themselves belong to the controllers, tabs and dialogs that run them.

#include <QString>
#include <QStringList>
#include <functional>
#include <vector>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;
class QMimeData;
class QWidget;

namespace strata::gui {

class CalibrationController;
class CompareTab;
class CompileController;
class EmulateController;
class ExportController;
class HostCalibrationController;
class MeasureController;
class ProjectController;
class ScheduleDocument;
class ScheduleEditor;
class ScheduleToolBar;
class SearchDialog;
class TimelineTab;

struct MenuParts {
    std::function<void()> openRequested;  // File > Open…
    ScheduleDocument* document = nullptr; // its undo stack's buttons
    ScheduleEditor* editor = nullptr;
    ScheduleToolBar* toolbar = nullptr;
    CompileController* compile = nullptr;
    EmulateController* emulate = nullptr;
    MeasureController* measure = nullptr;
    ExportController* exporter = nullptr;
    ProjectController* project = nullptr;
    TimelineTab* timeline = nullptr;
    CompareTab* compare = nullptr;
    SearchDialog* search = nullptr;
    CalibrationController* calibration = nullptr;
    HostCalibrationController* hostCalibration = nullptr;
    std::vector<QDockWidget*> docks; // their toggles go in View
};

// Fills `window`'s menu bar (with Open, Quit and About of its own) and `parts.toolbar`; returns
// the (empty) Open Recent menu.
QMenu* buildMainMenus(QMainWindow* window, const MenuParts& parts);

// The local .onnx and .strata files among dropped URLs.
QStringList openableFiles(const QMimeData* mime);

// Asks for a model or project to open, starting in `dir`; empty when cancelled.
QString askForModelOrProject(QWidget* parent, const QString& dir);

} // namespace strata::gui
