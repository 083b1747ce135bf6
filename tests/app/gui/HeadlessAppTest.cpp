// The `strata` executable without a user: --help without a display answers instead of
// aborting, with no internal jargon; a headless run (--screenshot) on a project that cannot be
// opened, or whose model is gone, exits non-zero with the reason on stderr instead of waiting
// forever for an event or a dialog nobody answers; one naming a model outside its folder is
// refused as bad input (exit 2).

#include "support/GuiTestSupport.h"
#include "project/Project.h"

#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <gtest/gtest.h>

namespace strata::gui {
namespace {

constexpr int kExitTimeoutMs = 60'000;

struct Outcome {
    bool finished = false;
    int exitCode = -1;
    QString out;
    QString err;
};

Outcome runApp(const QStringList& arguments, const QProcessEnvironment& environment) {
    QProcess app;
    app.setProcessEnvironment(environment);
    app.start(QStringLiteral(STRATA_APP_PATH), arguments);
    Outcome outcome;
    outcome.finished = app.waitForStarted() && app.waitForFinished(kExitTimeoutMs);
    if (!outcome.finished) {
        app.kill();
        app.waitForFinished();
    }
    outcome.exitCode = app.exitStatus() == QProcess::NormalExit ? app.exitCode() : -1;
    outcome.out = QString::fromUtf8(app.readAllStandardOutput());
    outcome.err = QString::fromUtf8(app.readAllStandardError());
    return outcome;
}

QProcessEnvironment headless() {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    return environment;
}

TEST(HeadlessApp, HelpNeedsNoDisplay) {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        environment.remove(QLatin1String(name));
    const Outcome help = runApp({QStringLiteral("--help")}, environment);
    ASSERT_TRUE(help.finished);
    EXPECT_EQ(help.exitCode, 0) << help.err.toStdString();
    EXPECT_TRUE(help.out.contains(QStringLiteral("--screenshot"))) << help.out.toStdString();
    EXPECT_FALSE(help.out.contains(QStringLiteral("seed"), Qt::CaseInsensitive));

    const Outcome version = runApp({QStringLiteral("--version")}, environment);
    ASSERT_TRUE(version.finished);
    EXPECT_EQ(version.exitCode, 0) << version.err.toStdString();
}

TEST(HeadlessApp, ABrokenProjectEndsTheRunWithItsReason) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("broken.strata"));
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("{\"strata_project\": 1, \"model\": {\"path\": \"x.onnx\"");
    }
    const Outcome run =
        runApp({QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("shot.png")), path},
               headless());
    ASSERT_TRUE(run.finished) << "the headless app did not exit";
    EXPECT_EQ(run.exitCode, 1);
    EXPECT_TRUE(run.err.contains(QStringLiteral("could not open"))) << run.err.toStdString();
    EXPECT_TRUE(run.err.contains(QStringLiteral("broken.strata"))) << run.err.toStdString();
}

TEST(HeadlessApp, AProjectWhoseModelIsGoneAsksNobody) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    project::Project project;
    project.modelPath = dir.filePath(QStringLiteral("gone.onnx")).toStdString();
    project.target = "host";
    project.strategy = "fuse-max";
    const QString path = dir.filePath(QStringLiteral("moved.strata"));
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(
            QByteArray::fromStdString(project::projectToJson(project, dir.path().toStdString())));
    }
    const Outcome run =
        runApp({QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("shot.png")), path},
               headless());
    ASSERT_TRUE(run.finished) << "the headless app did not exit";
    EXPECT_EQ(run.exitCode, 1);
    EXPECT_TRUE(run.err.contains(QStringLiteral("gone.onnx"))) << run.err.toStdString();
}

TEST(HeadlessApp, AProjectNamingAModelOutsideItsFolderIsRefused) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    project::Project project;
    project.modelPath = test::samplePath("resnet_tiny.onnx").toStdString();
    project.target = "host";
    const QString path = dir.filePath(QStringLiteral("outside.strata"));
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(
            QByteArray::fromStdString(project::projectToJson(project, dir.path().toStdString())));
    }
    const Outcome run =
        runApp({QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("shot.png")), path},
               headless());
    ASSERT_TRUE(run.finished) << "the headless app did not exit";
    EXPECT_EQ(run.exitCode, 2); // bad input, not a failed run
    EXPECT_TRUE(run.err.contains(QStringLiteral("outside the project's folder")))
        << run.err.toStdString();
    EXPECT_FALSE(QFileInfo::exists(dir.filePath(QStringLiteral("shot.png"))));
}

TEST(HeadlessApp, AModelThatDoesNotLoadEndsTheRunWithItsReason) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString garbage = test::writeGarbageModel(dir);
    ASSERT_FALSE(garbage.isEmpty());
    const Outcome run =
        runApp({QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("shot.png")), garbage},
               headless());
    ASSERT_TRUE(run.finished) << "the headless app did not exit";
    EXPECT_EQ(run.exitCode, 1);
    EXPECT_TRUE(run.err.contains(QStringLiteral("error"))) << run.err.toStdString();
}

} // namespace
} // namespace strata::gui
