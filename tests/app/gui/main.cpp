// One QApplication for the whole run, on the offscreen platform, with settings kept apart from
// the user's (QStandardPaths test mode also moves QSettings' files) and an empty XDG config
// directory, so `host` is the preset and not the developer's calibrated target
// (target::userResolveOptions()); tests that need a calibrated one write it there.

#include <QApplication>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <gtest/gtest.h>

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir config;
    if (!config.isValid())
        return 1;
    qputenv("XDG_CONFIG_HOME", config.path().toLocal8Bit());
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("StrataTests"));
    QApplication::setApplicationName(QStringLiteral("strata_gui_tests"));
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
