#pragma once
// The main-window fixture the GUI tests share: a shown window, waiting until its background
// jobs are done, opening a sample or a project, Run on Host, an edit, and looking for a text in
// the Diagnostics dock. Each returns false (never asserts); a test fails when a committed sample
// does not open.

#include "panels/DiagnosticsPanel.h"
#include "tabs/GraphTab.h"
#include "GuiTestSupport.h"
#include "shell/MainWindow.h"
#include "controllers/MeasureController.h"
#include "controllers/ProjectController.h"
#include "document/ScheduleDocument.h"
#include "views/graph/GraphView.h"

#include <QAction>
#include <QSettings>
#include <QSignalSpy>
#include <QTreeWidgetItem>
#include <memory>

namespace strata::gui::test {

// A window shown at `size` with fresh settings and no graph animation.
inline std::unique_ptr<MainWindow> makeShownWindow(QSize size = {1500, 950}) {
    QSettings().clear();
    auto window = std::make_unique<MainWindow>();
    window->resize(size);
    window->show();
    window->graphTab()->view()->setAnimated(false);
    return window;
}

inline bool settle(const MainWindow& window) {
    return waitUntilIdle([&] { return window.isBusy(); });
}

// Opens samples/`sample` for `target` and waits for its schedule; false if it is not there.
inline bool openSample(MainWindow& window, const char* sample, const QString& target) {
    const QString path = samplePath(sample);
    if (!QFileInfo::exists(path) || !window.scheduleDocument()->setTarget(target))
        return false;
    QSignalSpy loaded(&window, &MainWindow::loadFinished);
    window.openFile(path);
    if (!QTest::qWaitFor([&] { return loaded.count() > 0; }, kLoadTimeoutMs) || !loaded.at(0).at(1).toBool())
        return false;
    return settle(window) && window.scheduleDocument()->schedule() != nullptr;
}

// Opens a project file; true when it opened and the window settled.
inline bool openProject(MainWindow& window, const QString& path) {
    QSignalSpy opened(window.projectController(), &ProjectController::projectOpened);
    window.openFile(path);
    if (!QTest::qWaitFor([&] { return opened.count() > 0; }, kSettleTimeoutMs))
        return false;
    return opened.at(0).at(1).toBool() && settle(window);
}

// Run on Host (Ctrl+R) until its result is shown.
inline bool runOnHost(MainWindow& window) {
    QSignalSpy measured(window.measureController(), &MeasureController::measured);
    window.measureController()->runAction()->trigger();
    return QTest::qWaitFor([&] { return measured.count() > 0; }, kLoadTimeoutMs) && settle(window);
}

// Splits the first block of two ops or more: an edited schedule.
inline bool splitFirstFusedBlock(MainWindow& window) {
    ScheduleDocument& document = *window.scheduleDocument();
    for (const schedule::Block& block : document.schedule()->blocks)
        if (block.ops.size() > 1)
            return document.split(block.ops[1]).applied() && settle(window);
    return false;
}

// Some row of the Diagnostics dock says `text` (in a column or its tooltip).
inline bool diagnosticsMention(const DiagnosticsPanel& panel, const QString& text) {
    for (int i = 0; i < panel.topLevelItemCount(); ++i)
        for (int c = 0; c < panel.columnCount(); ++c)
            if (panel.topLevelItem(i)->text(c).contains(text) || panel.topLevelItem(i)->toolTip(c).contains(text))
                return true;
    return false;
}

} // namespace strata::gui::test
