#include "jobs/ModelLoader.h"

#include "support/GuiTestSupport.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

using test::kLoadTimeoutMs;

TEST(ModelLoader, MissingFileFinishesWithAnError) {
    ModelLoader loader;
    QSignalSpy finished(&loader, &ModelLoader::finished);
    const std::uint64_t generation = loader.load(QStringLiteral("/nonexistent/model.onnx"));
    EXPECT_TRUE(loader.isLoading());
    ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() == 1; }, kLoadTimeoutMs));
    const auto result = finished.at(0).at(0).value<LoadResult>();
    EXPECT_EQ(result.generation, generation);
    EXPECT_EQ(result.path, QStringLiteral("/nonexistent/model.onnx"));
    EXPECT_FALSE(result.ok());
    EXPECT_TRUE(hasErrors(result.diagnostics));
    EXPECT_FALSE(loader.isLoading());
}

TEST(ModelLoader, OnlyTheNewestLoadReports) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString garbage = test::writeGarbageModel(dir);
    ModelLoader loader;
    QSignalSpy finished(&loader, &ModelLoader::finished);
    loader.load(garbage);
    loader.load(QStringLiteral("/nonexistent/first.onnx"));
    const std::uint64_t newest = loader.load(QStringLiteral("/nonexistent/second.onnx"));
    ASSERT_TRUE(QTest::qWaitFor([&] { return !loader.isLoading(); }, kLoadTimeoutMs));
    JobRunner::instance().drain(); // a stale load that reports has now
    ASSERT_EQ(finished.count(), 1);
    const auto result = finished.at(0).at(0).value<LoadResult>();
    EXPECT_EQ(result.generation, newest);
    EXPECT_EQ(result.path, QStringLiteral("/nonexistent/second.onnx"));
}

TEST(ModelLoader, LoadsASample) {
    const QString path = test::samplePath("resnet_tiny.onnx");
    if (!QFileInfo::exists(path))
        FAIL() << "cannot load the committed sample " << path.toStdString();
    ModelLoader loader;
    QSignalSpy finished(&loader, &ModelLoader::finished);
    loader.load(path);
    ASSERT_TRUE(QTest::qWaitFor([&] { return finished.count() == 1; }, kLoadTimeoutMs));
    const auto result = finished.at(0).at(0).value<LoadResult>();
    ASSERT_TRUE(result.ok());
    EXPECT_FALSE(result.graph->ops.empty());
    EXPECT_FALSE(hasErrors(result.diagnostics));
}

TEST(ModelLoader, DestroyingWhileLoadingDropsTheResult) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    auto loader = std::make_unique<ModelLoader>();
    QSignalSpy finished(loader.get(), &ModelLoader::finished);
    loader->load(test::writeGarbageModel(dir));
    loader.reset(); // waits for the worker; nothing may reach the dead object
    QCoreApplication::sendPostedEvents(); // what the worker posted is delivered (or dropped)
    QCoreApplication::processEvents();
    EXPECT_EQ(finished.count(), 0);
}

} // namespace
} // namespace strata::gui
