// strata: the desktop app. `strata [MODEL] [--screenshot OUT.png]
// [--tab graph|program|pipeline|ops|timeline|transfers|compare] [--trace FILE
// ...] [--target NAME]
// [--strategy NAME] [--heat time|dram|error] [--run] [--export DIR] [--size
// WxH] [--select OP|B3]
// [--input-shape name=1x3x224x224 ...]`.
// With --screenshot or --export it works headless: loads MODEL, runs what the
// tab needs (the schedule, the graph's layout, a compile for program and
// pipeline; with --run a measured run on this computer; with --tab compare, the
// --trace files are the runs compared), writes the export bundle and/or renders
// the window into OUT.png and exits: 0 when the model loaded (and the export
// worked), 1 when not (the reason on stderr; a project whose model is gone
// fails instead of asking), 2 on bad usage. --help and --version need no
// display.

#include "controllers/ProjectController.h"
#include "document/ScheduleDocument.h"
#include "runs/RunList.h"
#include "shell/AppArguments.h"
#include "shell/HeadlessRunner.h"
#include "shell/MainWindow.h"
#include "tabs/CompareTab.h"
#include "tabs/GraphTab.h"
#include "tabs/TimelineTab.h"
#include "views/graph/GraphView.h"

#include <QApplication>
#include <QComboBox>
#include <memory>

int main(int argc, char* argv[]) {
    using namespace strata;
    std::unique_ptr<QCoreApplication> app;
    if (gui::asksForHelpOrVersion(argc, argv))
        app = std::make_unique<QCoreApplication>(argc, argv);
    else
        app = std::make_unique<QApplication>(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Strata"));
    QApplication::setOrganizationName(QStringLiteral("Strata"));
    QApplication::setApplicationVersion(QStringLiteral(STRATA_VERSION));

    gui::AppArguments args;
    if (const int status = gui::parseArguments(QCoreApplication::arguments(), args))
        return status;

    gui::MainWindow window;
    window.setImportOptions(args.importOptions);
    if (!args.target.isEmpty() && !window.scheduleDocument()->setTarget(args.target))
        return gui::usageError(args, QStringLiteral("cannot load --target '%1'").arg(args.target));
    if (args.strategy)
        window.scheduleDocument()->setStrategy(*args.strategy);
    window.showTab(args.tab);
    if (args.heat) {
        QComboBox* heat = window.graphTab()->view()->heatCombo();
        heat->setCurrentIndex(heat->findData(static_cast<int>(*args.heat)));
    }
    if (args.headless())
        return gui::runHeadless(window, args);

    window.show();
    window.projectController()->offerRecovery(); // the last session did not close cleanly
    if (!args.model.isEmpty())
        window.openFile(args.model);
    if (!args.traces.isEmpty())
        window.timelineTab()->openTraceFiles(args.traces);
    if (args.tab == QLatin1String("compare"))
        for (const QString& trace : args.traces)
            window.compareTab()->runs()->importFile(trace);
    return QApplication::exec();
}
