// One QApplication for the whole run, on the offscreen platform, with settings kept apart from
// the user's (QStandardPaths test mode also moves QSettings' files) and an empty XDG config
// directory, so `host` is the preset and not the developer's calibrated target
// (target::userResolveOptions()); tests that need a calibrated one write it there. The app
// does not calibrate on start ($STRATA_NO_CALIBRATE).

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
    // No calibration of this machine on start (HostCalibrationController); its tests turn it on.
    qputenv("STRATA_NO_CALIBRATE", "1");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("StrataTests"));
    QApplication::setApplicationName(QStringLiteral("strata_gui_tests"));
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
