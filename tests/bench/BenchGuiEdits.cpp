// strata_bench_gui_edits MODEL: how long an edit takes to reach the graph's badges in the main
// window (a split, then its undo, three times each) on host and mncore2: from the edit to the
// new predictions shown (EmulateController::predictionsShown). Printed, never asserted; not a
// test. Runs offscreen unless QT_QPA_PLATFORM says otherwise, with settings kept apart from the
// user's.

#include "controllers/EmulateController.h"
#include "document/ScheduleDocument.h"
#include "shell/MainWindow.h"
#include "tabs/GraphTab.h"
#include "views/graph/GraphView.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

using strata::gui::EmulateController;
using strata::gui::MainWindow;

constexpr int kTimeoutMs = 600'000;

// Runs the event loop until `done` or the timeout; false on timeout.
template <class Done> bool waitFor(Done done) {
    QElapsedTimer clock;
    clock.start();
    while (!done()) {
        if (clock.elapsed() > kTimeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    }
    return true;
}

// The first block with more than one op: split before its second op.
std::optional<strata::ir::OpId> splitPoint(const strata::gui::ScheduleDocument& document) {
    for (const strata::schedule::Block& block : document.schedule()->blocks)
        if (block.ops.size() > 1)
            return block.ops[1];
    return std::nullopt;
}

int measure(const QString& path, const QString& target) {
    MainWindow window;
    window.resize(1500, 950);
    window.show();
    window.graphTab()->view()->setAnimated(false);
    strata::gui::ScheduleDocument& document = *window.scheduleDocument();
    if (!document.setTarget(target)) {
        std::fprintf(stderr, "error: no target %s\n", qPrintable(target));
        return 1;
    }
    QSignalSpy loaded(&window, &MainWindow::loadFinished);
    window.openFile(path);
    if (!waitFor([&] { return loaded.count() > 0; }) || !loaded.at(0).at(1).toBool() ||
        !waitFor([&] { return !window.isBusy(); }) || !document.schedule()) {
        std::fprintf(stderr, "error: %s did not open\n", qPrintable(path));
        return 1;
    }
    EmulateController& emulation = *window.emulateController();
    std::vector<qint64> latencies;
    for (int i = 0; i < 6; ++i) {
        QSignalSpy shown(&emulation, &EmulateController::predictionsShown);
        if (i % 2 == 0) {
            const auto at = splitPoint(document);
            if (!at || !document.split(*at).applied()) {
                std::fprintf(stderr, "error: %s has no block to split\n", qPrintable(path));
                return 1;
            }
        } else {
            document.undoStack()->undo();
        }
        // Woken by the result, as the app is; a polling wait would add its period to each figure.
        if (!(shown.count() > 0 || shown.wait(kTimeoutMs))) {
            std::fprintf(stderr, "error: no prediction after edit %d\n", i + 1);
            return 1;
        }
        latencies.push_back(shown.back().at(0).toLongLong());
        if (!waitFor([&] { return !window.isBusy(); }))
            return 1;
    }
    std::sort(latencies.begin(), latencies.end());
    std::printf("edit -> badges on %s, %s: median %lld ms, min %lld, max %lld (%zu edits)\n",
                qPrintable(QFileInfo(path).fileName()), qPrintable(target),
                static_cast<long long>(latencies[latencies.size() / 2]),
                static_cast<long long>(latencies.front()), static_cast<long long>(latencies.back()),
                latencies.size());
    std::printf("  last: %s\n", qPrintable(emulation.totalLabel()->toolTip()));
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true); // settings apart from the user's
    QTemporaryDir config;
    if (!config.isValid())
        return 1;
    qputenv("XDG_CONFIG_HOME", config.path().toLocal8Bit()); // the "host" preset, uncalibrated
    qputenv("STRATA_NO_CALIBRATE", "1");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("StrataBench"));
    QApplication::setApplicationName(QStringLiteral("strata_bench_gui_edits"));
    const QStringList args = QApplication::arguments();
    QString path = args.size() > 1 ? args.at(1) : qEnvironmentVariable("STRATA_GUI_BENCH_MODEL");
    if (path.isEmpty() || !QFileInfo::exists(path)) {
        std::fprintf(stderr,
                     "usage: strata_bench_gui_edits MODEL.onnx (or STRATA_GUI_BENCH_MODEL)\n");
        return 2;
    }
    for (const QString& target : {QStringLiteral("host"), QStringLiteral("mncore2")})
        if (const int rc = measure(path, target); rc != 0)
            return rc;
    return 0;
}
