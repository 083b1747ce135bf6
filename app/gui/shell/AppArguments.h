#pragma once
// The desktop app's command line (`strata --help`): the model or project to
// open and, headless
// (--screenshot, --export), what to run and render before exiting. Bad usage
// exits with kUsageError and says why, with the help text, on stderr.

#include "model/ImportOptions.h"
#include "schedule/Strategies.h"
#include "views/graph/HeatScale.h"

#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>

namespace strata::gui {

inline constexpr int kUsageError = 2;

struct AppArguments {
    QString model;
    QString screenshot;
    QString tab = QStringLiteral("graph");
    QString target; // a preset name or target file; empty: the document's default
    QSize size{1600, 1000};
    model::ImportOptions importOptions;
    QStringList traces; // --trace: trace files for the Timeline tab
    QString select;     // --select: an op's name or a block ("B3") to select, e.g.
                        // for the Inspector
    bool run = false;   // --run: a measured run on this computer before the
                        // screenshot/export
    QString exportDir;  // --export: the bundle's folder
    std::optional<views::graph::HeatMode> heat; // --heat: the graph's heat overlay
    std::optional<schedule::Strategy> strategy; // --strategy; empty: the document's default
    QString helpText;                           // for usage errors found later

    // --screenshot or --export: run, render and exit without a user.
    bool headless() const { return !screenshot.isEmpty() || !exportDir.isEmpty(); }
};

// Parses `arguments` (QCoreApplication::arguments()) into `args`: 0, or
// kUsageError after saying why on stderr. --help and --version print and exit
// here.
int parseArguments(const QStringList& arguments, AppArguments& args);
// Says `message` and the help text on stderr; returns kUsageError.
int usageError(const AppArguments& args, const QString& message);
// --help and --version need no display: main() answers them with a
// QCoreApplication, since a QApplication aborts when it finds no display to
// connect to.
bool asksForHelpOrVersion(int argc, char* argv[]);

} // namespace strata::gui
