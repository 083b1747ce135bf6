#include "shell/HeadlessRunner.h"

#include "controllers/CompileController.h"
#include "controllers/EmulateController.h"
#include "controllers/ExportController.h"
#include "controllers/MeasureController.h"
#include "controllers/ProjectController.h"
#include "document/ScheduleDocument.h"
#include "panels/DiagnosticsPanel.h"
#include "runs/RunList.h"
#include "shell/AppArguments.h"
#include "shell/MainWindow.h"
#include "tabs/CompareTab.h"
#include "tabs/GraphTab.h"
#include "tabs/TimelineTab.h"
#include "views/graph/GraphView.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QPixmap>
#include <QRegularExpression>
#include <QTextStream>
#include <QTimer>
#include <QTreeWidgetItem>

namespace strata::gui {

namespace {

// Renders `window` into `path`. Returns false (with a message on stderr) if it
// cannot be saved.
bool saveScreenshot(QWidget& window, const QString& path) {
    const QPixmap pixmap = window.grab();
    if (pixmap.isNull() || !pixmap.save(path, "PNG")) {
        QTextStream(stderr) << "strata: cannot write screenshot " << path << "\n";
        return false;
    }
    return true;
}

// Waits until the window's background jobs are done (each bounded by its own
// timeout), so that no tab shows a half-finished state. Polled: several jobs
// hand over to each other. A starting schedule of a big model can take a while;
// after kSettleLimitMs the window is shown as it is.
void waitUntilSettled(const MainWindow& window) {
    constexpr qint64 kSettleLimitMs = 300'000;
    if (!window.isBusy())
        return;
    QElapsedTimer waited;
    waited.start();
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (!window.isBusy() || waited.elapsed() > kSettleLimitMs)
            loop.quit();
    });
    poll.start(25);
    loop.exec();
}

// Prints the Diagnostics dock's errors and warnings to stderr (headless: nobody
// sees the dock).
void printDiagnostics(const DiagnosticsPanel& panel) {
    using Panel = DiagnosticsPanel;
    QTextStream err(stderr);
    for (int i = 0; i < panel.topLevelItemCount(); ++i) {
        const QTreeWidgetItem* item = panel.topLevelItem(i);
        const QString severity = item->text(Panel::SeverityColumn);
        if (severity == QLatin1String("info"))
            continue;
        err << "strata: " << severity << ": " << item->text(Panel::MessageColumn);
        if (!item->text(Panel::LocationColumn).isEmpty())
            err << " (" << item->text(Panel::LocationColumn) << ")";
        err << "\n";
    }
}

// Headless: opens a model or project and waits for the outcome; on failure says
// why on stderr. A project ends with projectOpened (its model, schedule and
// saved run in place), a model with loadFinished; either may come before
// openFile() returns.
bool openHeadless(MainWindow& window, const QString& path) {
    bool finished = false;
    bool ok = false;
    QEventLoop loop;
    auto done = [&](const QString&, bool opened) {
        finished = true;
        ok = opened;
        loop.quit();
    };
    if (ProjectController::isProjectFile(path)) {
        // Nobody can answer "where is the model now?" headless: a missing model
        // fails.
        window.projectController()->setRelocateHandler({});
        // Nor "load files outside the project's folder anyway?": such a project is
        // refused.
        window.projectController()->setOutsideFilesHandler({});
        QObject::connect(window.projectController(), &ProjectController::projectOpened, &loop,
                         done);
    } else {
        QObject::connect(&window, &MainWindow::loadFinished, &loop, done);
    }
    window.openFile(path);
    if (!finished)
        loop.exec();
    if (!ok) {
        QTextStream(stderr) << "strata: could not open " << path << "\n";
        printDiagnostics(*window.diagnosticsPanel());
    }
    return ok;
}

// Selects the op called `name`, or block "B<id>", in the graph; false (with a
// message) if the model has neither.
bool selectHeadless(MainWindow& window, const QString& name) {
    views::graph::GraphView* view = window.graphTab()->view();
    static const QRegularExpression kBlock(QStringLiteral("^B(\\d{1,9})$"));
    const auto schedule = window.scheduleDocument()->schedule();
    if (const auto match = kBlock.match(name);
        match.hasMatch() && schedule && schedule->findBlock(match.captured(1).toInt())) {
        view->selectBlock(match.captured(1).toInt());
        return true;
    }
    const auto graph = window.scheduleDocument()->graph();
    if (const auto op = graph ? graph->findOp(name.toStdString()) : std::nullopt) {
        view->selectOp(*op);
        return true;
    }
    QTextStream(stderr) << "strata: --select '" << name << "': the model has no such op or block\n";
    return false;
}

} // namespace

int runHeadless(MainWindow& window, const AppArguments& args) {
    // Screenshot mode: wait for the background import, then render the settled
    // window.
    window.resize(args.size);
    window.show();
    const bool loaded = args.model.isEmpty() || openHeadless(window, args.model);
    if (!loaded && window.projectController()->refusedOutsideFiles())
        return kUsageError; // bad input: the project names files outside its folder
    if (loaded) {
        waitUntilSettled(window);
        // The listing and the passes need a compile of the schedule just made.
        if (args.tab == QLatin1String("program") || args.tab == QLatin1String("pipeline")) {
            window.compileController()->compile();
            waitUntilSettled(window);
        }
        // The timeline shows the emulation when no trace file is given.
        if ((args.tab == QLatin1String("timeline") || args.tab == QLatin1String("transfers")) &&
            args.traces.isEmpty() && !window.emulateController()->last()) {
            window.emulateController()->emulate();
            waitUntilSettled(window);
        }
    }
    if (!args.traces.isEmpty()) {
        window.timelineTab()->openTraceFiles(args.traces);
        waitUntilSettled(window);
        if (args.tab == QLatin1String("compare"))
            for (const QString& trace : args.traces) { // one by one: the list keeps their order
                window.compareTab()->runs()->importFile(trace);
                waitUntilSettled(window);
            }
    }
    if (loaded && args.run) {
        window.measureController()->run();
        waitUntilSettled(window);
        if (args.heat) { // error heat becomes available only now
            QComboBox* heat = window.graphTab()->view()->heatCombo();
            heat->setCurrentIndex(heat->findData(static_cast<int>(*args.heat)));
        }
    }
    bool exported = true;
    if (loaded && !args.exportDir.isEmpty()) {
        QEventLoop loop;
        bool finished = false; // some failures are reported before exportTo() returns
        QObject::connect(
            window.exportController(), &ExportController::finished, &loop,
            [&](bool ok, const QString& folder, const QStringList& files, const QString& message) {
                finished = true;
                exported = ok;
                QTextStream out(ok ? stdout : stderr);
                if (ok)
                    out << "strata: exported " << files.size() << " files to " << folder << "\n";
                else
                    out << "strata: export failed: " << message << "\n";
                loop.quit();
            });
        window.exportController()->exportTo(args.exportDir);
        if (!finished)
            loop.exec();
    }
    if (loaded && !args.select.isEmpty() && !selectHeadless(window, args.select))
        return kUsageError;
    if (args.screenshot.isEmpty())
        return loaded && exported ? 0 : 1;
    // Let layouts and deferred resizes (dock sizes, column widths) settle before
    // grabbing.
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
    window.resize(args.size);
    QCoreApplication::processEvents();
    if (!saveScreenshot(window, args.screenshot))
        return 1;
    return loaded && exported ? 0 : 1;
}

} // namespace strata::gui
