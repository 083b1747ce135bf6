// strata: the desktop app. `strata [MODEL] [--screenshot OUT.png]
// [--tab graph|program|pipeline|ops|timeline|transfers|compare] [--trace FILE ...] [--target NAME]
// [--strategy NAME] [--heat time|dram|error] [--run] [--export DIR] [--size WxH] [--select OP|B3]
// [--input-shape name=1x3x224x224 ...]`.
// With --screenshot or --export it works headless: loads MODEL, runs what the tab needs (the
// schedule, the graph's layout, a compile for program and pipeline; with --run a measured run on
// this computer; with --tab compare, the --trace files are the runs compared), writes the export
// bundle and/or renders the window into OUT.png and exits: 0 when the model loaded (and the export
// worked), 1 when not (the reason on stderr; a project whose model is gone fails instead of
// asking), 2 on bad usage. --help and --version need no display.

#include "controllers/CompileController.h"
#include "controllers/EmulateController.h"
#include "controllers/ExportController.h"
#include "controllers/MeasureController.h"
#include "controllers/ProjectController.h"
#include "document/ScheduleDocument.h"
#include "model/ImportOptions.h"
#include "panels/DiagnosticsPanel.h"
#include "runs/RunList.h"
#include "schedule/Strategies.h"
#include "shell/MainWindow.h"
#include "tabs/CompareTab.h"
#include "tabs/GraphTab.h"
#include "tabs/TimelineTab.h"
#include "views/graph/GraphView.h"

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QImage>
#include <QPixmap>
#include <QRegularExpression>
#include <QTextStream>
#include <QTimer>
#include <QTreeWidgetItem>
#include <cstdio>
#include <memory>
#include <optional>
#include <string_view>

namespace {

constexpr int kUsageError = 2;

struct Arguments {
    QString model;
    QString screenshot;
    QString tab = QStringLiteral("graph");
    QString target;   // a preset name or target file; empty: the document's default
    QString strategy; // empty: the document's default
    QSize size{1600, 1000};
    strata::model::ImportOptions importOptions;
    QStringList traces; // --trace: trace files for the Timeline tab
    QString select;    // --select: an op's name or a block ("B3") to select, e.g. for the Inspector
    bool run = false;  // --run: a measured run on this computer before the screenshot/export
    QString exportDir; // --export: the bundle's folder
    std::optional<strata::views::graph::HeatMode> heat; // --heat: the graph's heat overlay
};

int usageError(const QCommandLineParser& parser, const QString& message) {
    QTextStream err(stderr);
    err << "strata: " << message << "\n\n" << parser.helpText();
    return kUsageError;
}

std::optional<QSize> parseSize(const QString& text) {
    static const QRegularExpression kPattern(QStringLiteral("^(\\d{1,5})[xX](\\d{1,5})$"));
    const auto match = kPattern.match(text.trimmed());
    if (!match.hasMatch())
        return std::nullopt;
    const QSize size(match.captured(1).toInt(), match.captured(2).toInt());
    if (size.width() < 320 || size.height() < 240 || size.width() > 16384 || size.height() > 16384)
        return std::nullopt;
    return size;
}

// Renders `window` into `path`. Returns false (with a message on stderr) if it cannot be saved.
bool saveScreenshot(QWidget& window, const QString& path) {
    const QPixmap pixmap = window.grab();
    if (pixmap.isNull() || !pixmap.save(path, "PNG")) {
        QTextStream(stderr) << "strata: cannot write screenshot " << path << "\n";
        return false;
    }
    return true;
}

// Waits until the window's background jobs are done (each bounded by its own timeout), so that
// no tab shows a half-finished state. Polled: several jobs hand over to each other. A starting
// schedule of a big model can take a while; after kSettleLimitMs the window is shown as it is.
void waitUntilSettled(const strata::gui::MainWindow& window) {
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

// --help and --version need no display: they are answered by a QCoreApplication, since a
// QApplication aborts when it finds no display to connect to.
bool asksForHelpOrVersion(int argc, char* argv[]) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg(argv[i]);
        if (arg == "--") // what follows are file names
            return false;
        if (arg == "-h" || arg == "--help" || arg == "-?" || arg == "--help-all" || arg == "-v" ||
            arg == "--version")
            return true;
    }
    return false;
}

// Prints the Diagnostics dock's errors and warnings to stderr (headless: nobody sees the dock).
void printDiagnostics(const strata::gui::DiagnosticsPanel& panel) {
    using Panel = strata::gui::DiagnosticsPanel;
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

// Headless: opens a model or project and waits for the outcome; on failure says why on stderr.
// A project ends with projectOpened (its model, schedule and saved run in place), a model with
// loadFinished; either may come before openFile() returns.
bool openHeadless(strata::gui::MainWindow& window, const QString& path) {
    using strata::gui::MainWindow;
    using strata::gui::ProjectController;
    bool finished = false;
    bool ok = false;
    QEventLoop loop;
    auto done = [&](const QString&, bool opened) {
        finished = true;
        ok = opened;
        loop.quit();
    };
    if (ProjectController::isProjectFile(path)) {
        // Nobody can answer "where is the model now?" headless: a missing model fails.
        window.projectController()->setRelocateHandler({});
        // Nor "load files outside the project's folder anyway?": such a project is refused.
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

// Selects the op called `name`, or block "B<id>", in the graph; false (with a message) if the
// model has neither.
bool selectHeadless(strata::gui::MainWindow& window, const QString& name) {
    strata::views::graph::GraphView* view = window.graphTab()->view();
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

int main(int argc, char* argv[]) {
    std::unique_ptr<QCoreApplication> app;
    if (asksForHelpOrVersion(argc, argv))
        app = std::make_unique<QCoreApplication>(argc, argv);
    else
        app = std::make_unique<QApplication>(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Strata"));
    QApplication::setOrganizationName(QStringLiteral("Strata"));
    QApplication::setApplicationVersion(QStringLiteral(STRATA_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Strata: profiler and compiler explorer for deep-learning accelerators."));
    const QCommandLineOption helpOption = parser.addHelpOption();
    const QCommandLineOption versionOption = parser.addVersionOption();
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Load MODEL, save a PNG of the window to <file> and exit."),
        QStringLiteral("file"));
    const QCommandLineOption sizeOption(QStringLiteral("size"),
                                        QStringLiteral("Window size for --screenshot (default "
                                                       "1600x1000)."),
                                        QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    const QCommandLineOption tabOption(
        QStringLiteral("tab"),
        QStringLiteral("Tab to show: %1 (default graph).")
            .arg(strata::gui::MainWindow::tabNames().join(QStringLiteral(", "))),
        QStringLiteral("name"), QStringLiteral("graph"));
    const QCommandLineOption inputShapeOption(
        QStringLiteral("input-shape"),
        QStringLiteral("Static shape of a graph input, e.g. input=1x3x224x224. Repeatable."),
        QStringLiteral("name=shape"));
    const QCommandLineOption targetOption(
        QStringLiteral("target"),
        QStringLiteral("Target to schedule and compile for: a preset or a target file."),
        QStringLiteral("name"));
    const QCommandLineOption strategyOption(
        QStringLiteral("strategy"),
        QStringLiteral("Strategy of the starting schedule: per-op, rules or fuse-max."),
        QStringLiteral("name"));
    const QCommandLineOption traceOption(
        QStringLiteral("trace"),
        QStringLiteral(
            "Trace file (Strata / Chrome trace JSON) to show in the Timeline tab; with "
            "--tab compare, also a run to compare (the last two are compared). Repeatable."),
        QStringLiteral("file"));
    parser.addOption(traceOption);
    const QCommandLineOption heatOption(
        QStringLiteral("heat"),
        QStringLiteral("Colour the graph's blocks by predicted time, DRAM bytes or prediction "
                       "error (needs --run): time, dram, error."),
        QStringLiteral("figure"));
    parser.addOption(heatOption);
    const QCommandLineOption runOption(
        QStringLiteral("run"),
        QStringLiteral("Headless: run the schedule on this computer (host target) first, so the "
                       "timeline, heat overlay and export have a measured run."));
    parser.addOption(runOption);
    const QCommandLineOption exportOption(
        QStringLiteral("export"),
        QStringLiteral("Load MODEL, write the export bundle (with plots) into <folder> and exit."),
        QStringLiteral("folder"));
    parser.addOption(exportOption);
    const QCommandLineOption selectOption(
        QStringLiteral("select"),
        QStringLiteral("Headless: select an op (by name) or a block (B3) before the screenshot; "
                       "the Inspector shows it."),
        QStringLiteral("name"));
    parser.addOption(selectOption);
    parser.addOptions(
        {screenshotOption, tabOption, sizeOption, inputShapeOption, targetOption, strategyOption});
    parser.addPositionalArgument(QStringLiteral("model"),
                                 QStringLiteral("ONNX model or Strata project (.strata) to open."),
                                 QStringLiteral("[MODEL]"));

    // parse(), not process(): bad usage must exit with 2, which process() does not do.
    if (!parser.parse(QCoreApplication::arguments()))
        return usageError(parser, parser.errorText());
    if (parser.isSet(helpOption))
        parser.showHelp(0);
    if (parser.isSet(versionOption))
        parser.showVersion();

    Arguments args;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1)
        return usageError(
            parser, QStringLiteral("expected at most one model, got %1").arg(positional.size()));
    if (!positional.isEmpty())
        args.model = positional.front();
    args.screenshot = parser.value(screenshotOption);
    if (parser.isSet(sizeOption)) {
        const auto size = parseSize(parser.value(sizeOption));
        if (!size)
            return usageError(parser, QStringLiteral("bad --size '%1': expected WxH, at least "
                                                     "320x240")
                                          .arg(parser.value(sizeOption)));
        args.size = *size;
    }
    if (parser.isSet(tabOption)) {
        args.tab = parser.value(tabOption).trimmed().toLower();
        if (!strata::gui::MainWindow::tabNames().contains(args.tab))
            return usageError(
                parser, QStringLiteral("unknown --tab '%1': expected one of %2")
                            .arg(parser.value(tabOption),
                                 strata::gui::MainWindow::tabNames().join(QStringLiteral(", "))));
    }
    if (parser.isSet(heatOption)) {
        const QString heat = parser.value(heatOption).trimmed().toLower();
        if (heat == QLatin1String("time"))
            args.heat = strata::views::graph::HeatMode::PredictedTime;
        else if (heat == QLatin1String("dram"))
            args.heat = strata::views::graph::HeatMode::DramBytes;
        else if (heat == QLatin1String("error"))
            args.heat = strata::views::graph::HeatMode::PredictionError;
        else
            return usageError(parser,
                              QStringLiteral("unknown --heat '%1': expected time, dram or error")
                                  .arg(parser.value(heatOption)));
    }
    for (const QString& text : parser.values(inputShapeOption)) {
        auto parsed = strata::model::parseInputShape(text.toStdString());
        if (!parsed) {
            QString reasons;
            for (const strata::Diagnostic& d : parsed.diagnostics())
                reasons += QStringLiteral("\n  ") + QString::fromStdString(d.toString());
            return usageError(parser,
                              QStringLiteral("bad --input-shape '%1':%2").arg(text, reasons));
        }
        args.importOptions.inputShapes[parsed->first] = parsed->second;
    }

    args.traces = parser.values(traceOption);
    args.run = parser.isSet(runOption);
    args.exportDir = parser.value(exportOption);
    args.select = parser.value(selectOption).trimmed();
    args.target = parser.value(targetOption).trimmed();
    std::optional<strata::schedule::Strategy> strategy;
    if (parser.isSet(strategyOption)) {
        strategy =
            strata::schedule::parseStrategy(parser.value(strategyOption).trimmed().toStdString());
        if (!strategy)
            return usageError(parser, QStringLiteral("unknown --strategy '%1': expected per-op, "
                                                     "rules or fuse-max")
                                          .arg(parser.value(strategyOption)));
    }

    strata::gui::MainWindow window;
    window.setImportOptions(args.importOptions);
    if (!args.target.isEmpty() && !window.scheduleDocument()->setTarget(args.target))
        return usageError(parser, QStringLiteral("cannot load --target '%1'").arg(args.target));
    if (strategy)
        window.scheduleDocument()->setStrategy(*strategy);
    window.showTab(args.tab);
    if (args.heat) {
        QComboBox* heat = window.graphTab()->view()->heatCombo();
        heat->setCurrentIndex(heat->findData(static_cast<int>(*args.heat)));
    }

    if (args.screenshot.isEmpty() && args.exportDir.isEmpty()) {
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

    // Screenshot mode: wait for the background import, then render the settled window.
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
            window.exportController(), &strata::gui::ExportController::finished, &loop,
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
    // Let layouts and deferred resizes (dock sizes, column widths) settle before grabbing.
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
    window.resize(args.size);
    QCoreApplication::processEvents();
    if (!saveScreenshot(window, args.screenshot))
        return 1;
    return loaded && exported ? 0 : 1;
}
