#include "shell/MainMenus.h"

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
#include "panels/ScheduleToolBar.h"
#include "tabs/CompareTab.h"
#include "tabs/TimelineTab.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QUndoStack>
#include <QUrl>

namespace strata::gui {

namespace {

void showAbout(QWidget* parent) {
    QMessageBox::about(
        parent, QObject::tr("About Strata"),
        QObject::tr("<h3>Strata %1</h3>"
                    "<p>A profiler and visual compiler explorer for deep-learning accelerators.</p>"
                    "<p>Open an ONNX model to see its ops with their shapes, FLOPs and memory "
                    "traffic.</p>"
                    "<p>Built with Qt %2.</p>")
            .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

} // namespace

QStringList openableFiles(const QMimeData* mime) {
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

QString askForModelOrProject(QWidget* parent, const QString& dir) {
    return QFileDialog::getOpenFileName(
        parent, QObject::tr("Open Model or Project"), dir,
        QObject::tr("Models and projects (*.onnx *.strata);;ONNX models (*.onnx);;Strata "
                    "projects (*.strata);;All files (*)"));
}

QMenu* buildMainMenus(QMainWindow* window, const MenuParts& parts) {
    QMenuBar* bar = window->menuBar();
    QMenu* file = bar->addMenu(QObject::tr("&File"));
    QAction* open = file->addAction(QObject::tr("&Open…"));
    open->setShortcut(QKeySequence::Open);
    open->setStatusTip(QObject::tr("Open an ONNX model"));
    QObject::connect(open, &QAction::triggered, window, parts.openRequested);
    file->addAction(parts.timeline->openTraceAction());
    file->addAction(parts.compare->importAction());
    QMenu* recent = file->addMenu(QObject::tr("Open &Recent"));
    recent->setObjectName(QStringLiteral("recentMenu"));
    file->addSeparator();
    file->addAction(parts.project->saveAction());
    file->addAction(parts.project->saveAsAction());
    file->addAction(parts.exporter->exportAction());
    file->addSeparator();
    QAction* quit = file->addAction(QObject::tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);
    QObject::connect(quit, &QAction::triggered, window, &QWidget::close);

    QMenu* edit = bar->addMenu(QObject::tr("&Edit"));
    edit->addAction(parts.editor->undoAction());
    edit->addAction(parts.editor->redoAction());
    edit->addSeparator();
    edit->addAction(parts.editor->fuseAction());
    edit->addAction(parts.editor->splitAction());

    QMenu* build = bar->addMenu(QObject::tr("&Build"));
    build->addAction(parts.compile->compileAction());
    build->addAction(parts.compile->cancelAction());
    build->addSeparator();
    build->addAction(parts.emulate->emulateAction());
    build->addAction(parts.emulate->cancelAction());
    build->addAction(parts.emulate->autoAction());
    build->addSeparator();
    build->addAction(parts.measure->runAction());
    build->addAction(parts.measure->cancelAction());
    build->addSeparator();
    build->addAction(parts.compare->pinAction());
    build->addAction(parts.search->showAction());
    build->addAction(parts.calibration->calibrateAction());
    build->addAction(parts.hostCalibration->recalibrateAction());

    QMenu* view = bar->addMenu(QObject::tr("&View"));
    for (QDockWidget* dock : parts.docks)
        view->addAction(dock->toggleViewAction());

    QMenu* help = bar->addMenu(QObject::tr("&Help"));
    QAction* about = help->addAction(QObject::tr("&About Strata"));
    about->setMenuRole(QAction::AboutRole);
    QObject::connect(about, &QAction::triggered, window, [window] { showAbout(window); });
    help->addAction(QObject::tr("About &Qt"), qApp, &QApplication::aboutQt);

    ScheduleToolBar* toolbar = parts.toolbar;
    toolbar->addUndoRedo(parts.document->undoStack());
    toolbar->addSeparator();
    toolbar->addAction(parts.editor->fuseAction());
    toolbar->addAction(parts.editor->splitAction());
    toolbar->addSeparator();
    toolbar->addAction(parts.compile->compileAction());
    toolbar->addAction(parts.emulate->emulateAction());
    toolbar->addAction(parts.measure->runAction());
    return recent;
}

} // namespace strata::gui
