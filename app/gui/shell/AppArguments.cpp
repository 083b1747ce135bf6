#include "shell/AppArguments.h"

#include "shell/MainWindow.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QRegularExpression>
#include <QTextStream>
#include <string_view>

namespace strata::gui {

namespace {

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

} // namespace

int usageError(const AppArguments& args, const QString& message) {
    QTextStream err(stderr);
    err << "strata: " << message << "\n\n" << args.helpText;
    return kUsageError;
}

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

int parseArguments(const QStringList& arguments, AppArguments& args) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Strata: profiler and compiler explorer for deep-learning "
                       "accelerators."));
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
    const QCommandLineOption tabOption(QStringLiteral("tab"),
                                       QStringLiteral("Tab to show: %1 (default graph).")
                                           .arg(MainWindow::tabNames().join(QStringLiteral(", "))),
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
        QStringLiteral("Trace file (Strata / Chrome trace JSON) to show in the "
                       "Timeline tab; with "
                       "--tab compare, also a run to compare (the last two are "
                       "compared). Repeatable."),
        QStringLiteral("file"));
    parser.addOption(traceOption);
    const QCommandLineOption heatOption(
        QStringLiteral("heat"),
        QStringLiteral("Colour the graph's blocks by predicted time, DRAM bytes "
                       "or prediction "
                       "error (needs --run): time, dram, error."),
        QStringLiteral("figure"));
    parser.addOption(heatOption);
    const QCommandLineOption runOption(
        QStringLiteral("run"),
        QStringLiteral("Headless: run the schedule on this computer (host "
                       "target) first, so the "
                       "timeline, heat overlay and export have a measured run."));
    parser.addOption(runOption);
    const QCommandLineOption exportOption(
        QStringLiteral("export"),
        QStringLiteral("Load MODEL, write the export bundle (with plots) into "
                       "<folder> and exit."),
        QStringLiteral("folder"));
    parser.addOption(exportOption);
    const QCommandLineOption selectOption(
        QStringLiteral("select"),
        QStringLiteral("Headless: select an op (by name) or a block (B3) before "
                       "the screenshot; "
                       "the Inspector shows it."),
        QStringLiteral("name"));
    parser.addOption(selectOption);
    parser.addOptions(
        {screenshotOption, tabOption, sizeOption, inputShapeOption, targetOption, strategyOption});
    parser.addPositionalArgument(QStringLiteral("model"),
                                 QStringLiteral("ONNX model or Strata project (.strata) to open."),
                                 QStringLiteral("[MODEL]"));

    args.helpText = parser.helpText();
    // parse(), not process(): bad usage must exit with 2, which process() does
    // not do.
    if (!parser.parse(arguments))
        return usageError(parser, parser.errorText());
    if (parser.isSet(helpOption))
        parser.showHelp(0);
    if (parser.isSet(versionOption))
        parser.showVersion();

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
        if (!MainWindow::tabNames().contains(args.tab))
            return usageError(parser, QStringLiteral("unknown --tab '%1': expected one of %2")
                                          .arg(parser.value(tabOption),
                                               MainWindow::tabNames().join(QStringLiteral(", "))));
    }
    if (parser.isSet(heatOption)) {
        const QString heat = parser.value(heatOption).trimmed().toLower();
        if (heat == QLatin1String("time"))
            args.heat = views::graph::HeatMode::PredictedTime;
        else if (heat == QLatin1String("dram"))
            args.heat = views::graph::HeatMode::DramBytes;
        else if (heat == QLatin1String("error"))
            args.heat = views::graph::HeatMode::PredictionError;
        else
            return usageError(parser,
                              QStringLiteral("unknown --heat '%1': expected time, dram or error")
                                  .arg(parser.value(heatOption)));
    }
    for (const QString& text : parser.values(inputShapeOption)) {
        auto parsed = model::parseInputShape(text.toStdString());
        if (!parsed) {
            QString reasons;
            for (const Diagnostic& d : parsed.diagnostics())
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
    if (parser.isSet(strategyOption)) {
        args.strategy =
            schedule::parseStrategy(parser.value(strategyOption).trimmed().toStdString());
        if (!args.strategy)
            return usageError(parser, QStringLiteral("unknown --strategy '%1': expected per-op, "
                                                     "rules or fuse-max")
                                          .arg(parser.value(strategyOption)));
    }
    return 0;
}

} // namespace strata::gui
