#include "shell/MainWindow.h"

#include "support/WindowFixture.h"
#include "jobs/ModelLoader.h"
#include "views/OpTableModel.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QTreeWidget>
#include <QUrl>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

using test::kLoadTimeoutMs;
using views::OpTableModel;

class MainWindowTest : public test::WindowFixture {
  protected:
    MainWindowTest() : WindowFixture({1200, 800}) {}

    // Opens `path` and waits for the outcome; returns whether it loaded.
    bool load(const QString& path) {
        QSignalSpy spy(m_window.get(), &MainWindow::loadFinished);
        m_window->openFile(path);
        if (!QTest::qWaitFor([&] { return spy.count() > 0; }, kLoadTimeoutMs)) {
            ADD_FAILURE() << "no loadFinished for " << path.toStdString();
            return false;
        }
        EXPECT_EQ(spy.at(0).at(0).toString(), path);
        return spy.at(0).at(1).toBool();
    }

    QString resnetPath() {
        const QString path = test::samplePath("resnet_tiny.onnx");
        if (!QFileInfo::exists(path))
            return {};
        return path;
    }

    template <class T> T* child(const char* name) const {
        T* widget = m_window->findChild<T*>(QLatin1String(name));
        EXPECT_NE(widget, nullptr) << name;
        return widget;
    }

    QTableView* opTable() const { return child<QTableView>("opTable"); }
    QTreeWidget* diagnostics() const { return child<QTreeWidget>("diagnosticsList"); }
    int diagnosticsWithSeverity(const QString& severity) const {
        int n = 0;
        QTreeWidget* list = diagnostics();
        for (int i = 0; i < list->topLevelItemCount(); ++i)
            if (list->topLevelItem(i)->text(0) == severity)
                ++n;
        return n;
    }

    // The window reacts to input after an error: menus work, the filter takes text.
    void expectUsable() {
        EXPECT_TRUE(m_window->isVisible());
        EXPECT_TRUE(m_window->isEnabled());
        EXPECT_FALSE(m_window->isLoading());
        auto* filter = child<QLineEdit>("opFilter");
        filter->clear();
        QTest::keyClicks(filter, QStringLiteral("x"));
        EXPECT_EQ(filter->text(), QStringLiteral("x"));
        filter->clear();
        bool openEnabled = false;
        for (QAction* action : m_window->findChildren<QAction*>())
            if (action->shortcut() == QKeySequence(QKeySequence::Open))
                openEnabled = action->isEnabled();
        EXPECT_TRUE(openEnabled);
    }
};

TEST_F(MainWindowTest, StartsWithThePlaceholder) {
    auto* stack = child<QStackedWidget>("centralStack");
    EXPECT_EQ(stack->currentWidget()->objectName(), QStringLiteral("placeholder"));
    EXPECT_TRUE(child<QLabel>("placeholderText")->text().contains(QStringLiteral("Ctrl+O")));
    EXPECT_EQ(m_window->windowTitle(), QStringLiteral("Strata"));
    EXPECT_EQ(opTable()->model()->rowCount(), 0);
}

TEST_F(MainWindowTest, MissingFileShowsAnErrorAndTheWindowStaysUsable) {
    EXPECT_FALSE(load(QStringLiteral("/nonexistent/dir/model.onnx")));
    EXPECT_GE(diagnosticsWithSeverity(QStringLiteral("error")), 1);
    EXPECT_TRUE(child<QDockWidget>("diagnosticsDock")->isVisible());
    EXPECT_TRUE(
        child<QDockWidget>("diagnosticsDock")->windowTitle().contains(QStringLiteral("error")));
    EXPECT_TRUE(
        m_window->statusBar()->currentMessage().startsWith(QStringLiteral("Could not open")))
        << m_window->statusBar()->currentMessage().toStdString();
    EXPECT_TRUE(child<QLabel>("placeholderError")->isVisible());
    EXPECT_EQ(m_window->windowTitle(), QStringLiteral("Strata"));
    expectUsable();
}

TEST_F(MainWindowTest, GarbageFileShowsAnErrorAndTheWindowStaysUsable) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString garbage = test::writeGarbageModel(dir);
    ASSERT_FALSE(garbage.isEmpty());
    EXPECT_FALSE(load(garbage));
    EXPECT_GE(diagnosticsWithSeverity(QStringLiteral("error")), 1);
    EXPECT_EQ(opTable()->model()->rowCount(), 0);
    expectUsable();

    // And it still opens a good model afterwards.
    const QString resnet = resnetPath();
    if (resnet.isEmpty())
        return;
    EXPECT_TRUE(load(resnet));
    EXPECT_GT(opTable()->model()->rowCount(), 0);
    EXPECT_EQ(diagnosticsWithSeverity(QStringLiteral("error")), 0);
    EXPECT_FALSE(child<QLabel>("placeholderError")->isVisible());
}

TEST_F(MainWindowTest, LoadsASampleIntoTheTableAndSummary) {
    const QString resnet = resnetPath();
    if (resnet.isEmpty())
        FAIL() << "samples/resnet_tiny.onnx is missing";
    ASSERT_TRUE(load(resnet));
    const int rows = opTable()->model()->rowCount();
    EXPECT_GT(rows, 0);
    EXPECT_EQ(m_window->windowTitle(), QStringLiteral("Strata \u2014 resnet_tiny.onnx[*]"));
    EXPECT_EQ(child<QStackedWidget>("centralStack")->currentWidget()->objectName(),
              QStringLiteral("centralTabs"));
    EXPECT_EQ(child<QLabel>("summaryNodes")->text(), QString::number(rows));
    EXPECT_EQ(child<QLabel>("summaryFile")->text(), QStringLiteral("resnet_tiny.onnx"));
    EXPECT_FALSE(child<QLabel>("statusTotals")->text().isEmpty());
    EXPECT_GE(diagnosticsWithSeverity(QStringLiteral("info")), 1);
    EXPECT_EQ(m_window->currentFile(), resnet);
}

TEST_F(MainWindowTest, FilterNarrowsRowsByNameOrType) {
    const QString resnet = resnetPath();
    if (resnet.isEmpty())
        FAIL() << "samples/resnet_tiny.onnx is missing";
    ASSERT_TRUE(load(resnet));
    QAbstractItemModel* model = opTable()->model();
    const int total = model->rowCount();

    auto* filter = child<QLineEdit>("opFilter");
    QTest::keyClicks(filter, QStringLiteral("conv"));
    const int shown = model->rowCount();
    EXPECT_GT(shown, 0);
    EXPECT_LT(shown, total);
    for (int row = 0; row < shown; ++row) {
        const QString name = model->index(row, OpTableModel::NameColumn).data().toString();
        const QString type = model->index(row, OpTableModel::TypeColumn).data().toString();
        EXPECT_TRUE(name.contains(QStringLiteral("conv"), Qt::CaseInsensitive) ||
                    type.contains(QStringLiteral("conv"), Qt::CaseInsensitive))
            << name.toStdString() << " " << type.toStdString();
    }
    EXPECT_EQ(child<QLabel>("opFilterCount")->text(),
              QStringLiteral("%1 of %2 ops").arg(shown).arg(total));

    filter->clear();
    EXPECT_EQ(model->rowCount(), total);
    QTest::keyClicks(filter, QStringLiteral("no-op-is-called-this"));
    EXPECT_EQ(model->rowCount(), 0);
}

TEST_F(MainWindowTest, SortsByFlopsNumerically) {
    const QString resnet = resnetPath();
    if (resnet.isEmpty())
        FAIL() << "samples/resnet_tiny.onnx is missing";
    ASSERT_TRUE(load(resnet));
    opTable()->sortByColumn(OpTableModel::FlopsColumn, Qt::DescendingOrder);
    QAbstractItemModel* model = opTable()->model();
    for (int row = 1; row < model->rowCount(); ++row) {
        const double previous = model->index(row - 1, OpTableModel::FlopsColumn)
                                    .data(OpTableModel::SortRole)
                                    .toDouble();
        const double current =
            model->index(row, OpTableModel::FlopsColumn).data(OpTableModel::SortRole).toDouble();
        EXPECT_GE(previous, current) << "row " << row;
    }
}

TEST_F(MainWindowTest, FailedLoadKeepsTheModelShown) {
    const QString resnet = resnetPath();
    if (resnet.isEmpty())
        FAIL() << "samples/resnet_tiny.onnx is missing";
    ASSERT_TRUE(load(resnet));
    const int rows = opTable()->model()->rowCount();
    EXPECT_FALSE(load(QStringLiteral("/nonexistent/other.onnx")));
    EXPECT_EQ(opTable()->model()->rowCount(), rows);
    EXPECT_EQ(m_window->windowTitle(), QStringLiteral("Strata \u2014 resnet_tiny.onnx[*]"));
    EXPECT_GE(diagnosticsWithSeverity(QStringLiteral("error")), 1);
    expectUsable();
}

TEST_F(MainWindowTest, NewerLoadSupersedesAnOlderOne) {
    const QString resnet = resnetPath();
    if (resnet.isEmpty())
        FAIL() << "samples/resnet_tiny.onnx is missing";
    QSignalSpy spy(m_window.get(), &MainWindow::loadFinished);
    m_window->openFile(QStringLiteral("/nonexistent/stale.onnx"));
    m_window->openFile(resnet);
    ASSERT_TRUE(QTest::qWaitFor([&] { return !m_window->isLoading(); }, kLoadTimeoutMs));
    JobRunner::instance().drain(); // the stale load, had it reported, has now
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(spy.at(0).at(0).toString(), resnet);
    EXPECT_TRUE(spy.at(0).at(1).toBool());
    EXPECT_EQ(diagnosticsWithSeverity(QStringLiteral("error")), 0);
}

TEST_F(MainWindowTest, DroppingAnOnnxFileOpensIt) {
    QSignalSpy spy(m_window.get(), &MainWindow::loadFinished);
    const QString path = QStringLiteral("/nonexistent/dropped.onnx");
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    // A drag enters first: that makes the window the drop target.
    QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(m_window.get(), &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(m_window.get(), &drop);
    ASSERT_TRUE(QTest::qWaitFor([&] { return spy.count() > 0; }, kLoadTimeoutMs));
    EXPECT_EQ(spy.at(0).at(0).toString(), path);
}

TEST_F(MainWindowTest, DroppingOtherFilesIsIgnored) {
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(QStringLiteral("/tmp/notes.txt"))});
    QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(m_window.get(), &enter);
    EXPECT_FALSE(enter.isAccepted());
    QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(m_window.get(), &drop);
    EXPECT_FALSE(m_window->isLoading());
}

TEST_F(MainWindowTest, RemembersRecentFiles) {
    const QString resnet = resnetPath();
    if (resnet.isEmpty())
        FAIL() << "samples/resnet_tiny.onnx is missing";
    ASSERT_TRUE(load(resnet));
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    ASSERT_FALSE(recent.isEmpty());
    EXPECT_EQ(recent.front(), QFileInfo(resnet).absoluteFilePath());
    auto* menu = child<QMenu>("recentMenu");
    ASSERT_FALSE(menu->actions().isEmpty());
    EXPECT_TRUE(menu->actions().front()->text().contains(QStringLiteral("resnet_tiny.onnx")));
}

} // namespace
} // namespace strata::gui
