#pragma once
// The fixtures the main-window tests derive from: a shown, exposed window with fresh settings,
// and the steps every such test takes (open a sample, wait for it to settle, Run on Host). The
// helpers return false instead of asserting, and the tests assert on them: a committed sample
// that does not open, or a window that never settles, fails the test, never skips it.

#include "WindowTestSupport.h"

#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <memory>

namespace strata::gui::test {

// Opens the model at `path` and waits for its schedule; an empty `target` keeps the window's.
inline bool openModel(MainWindow& window, const QString& path, const QString& target = {}) {
    if (!QFileInfo::exists(path) ||
        (!target.isEmpty() && !window.scheduleDocument()->setTarget(target)))
        return false;
    QSignalSpy loaded(&window, &MainWindow::loadFinished);
    window.openFile(path);
    if (!QTest::qWaitFor([&] { return loaded.count() > 0; }, kLoadTimeoutMs) ||
        !loaded.at(0).at(1).toBool())
        return false;
    return settle(window) && window.scheduleDocument()->schedule() != nullptr;
}

// A main window shown at `size` (fresh settings, no graph animation), exposed before the test.
class WindowFixture : public ::testing::Test {
  protected:
    explicit WindowFixture(QSize size = {1500, 950}) : m_size(size) {}

    void SetUp() override {
        m_window = makeShownWindow(m_size);
        ASSERT_TRUE(QTest::qWaitForWindowExposed(m_window.get()));
    }

    ScheduleDocument& document() const { return *m_window->scheduleDocument(); }
    bool settle() { return test::settle(*m_window); }
    bool openSample(const char* sample, const QString& target = {}) {
        return openModel(*m_window, samplePath(sample), target);
    }
    bool openOnHost(const char* sample) { return openSample(sample, QStringLiteral("host")); }
    bool runOnHost() { return test::runOnHost(*m_window); }
    // The same for another window (a test that opens a second one).
    static bool settle(MainWindow& window) { return test::settle(window); }
    static bool openSample(MainWindow& window, const char* sample, const QString& target) {
        return test::openSample(window, sample, target);
    }
    static bool runOnHost(MainWindow& window) { return test::runOnHost(window); }

    std::unique_ptr<MainWindow> m_window;

  private:
    QSize m_size;
};

// Main windows whose projects live in a temporary folder: the recovery file is written there, a
// project naming a model outside it (the committed samples) loads without asking, and a moved
// model is not looked for.
class ProjectWindowFixture : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(m_dir.isValid());
        m_window = makeWindow();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(m_window.get()));
    }

    std::unique_ptr<MainWindow> makeWindow() const {
        auto window = makeShownWindow({1400, 900});
        window->projectController()->setRecoveryPath(
            m_dir.filePath(QStringLiteral("recovery.strata")));
        window->projectController()->setOutsideFilesHandler([](const QString&) { return true; });
        window->projectController()->setRelocateHandler([](const QString&) { return QString(); });
        return window;
    }

    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;
};

} // namespace strata::gui::test
