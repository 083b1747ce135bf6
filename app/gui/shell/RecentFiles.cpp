#include "shell/RecentFiles.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QStringList>

namespace strata::gui {

namespace {

const QString kRecentFilesKey = QStringLiteral("recentFiles");

} // namespace

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), m_menu(menu) {
    rebuildMenu();
}

void RecentFiles::add(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QSettings settings;
    QStringList files = settings.value(kRecentFilesKey).toStringList();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kMaxFiles)
        files.removeLast();
    settings.setValue(kRecentFilesKey, files);
    rebuildMenu();
}

void RecentFiles::remove(const QString& path) {
    QSettings settings;
    QStringList files = settings.value(kRecentFilesKey).toStringList();
    if (files.removeAll(QFileInfo(path).absoluteFilePath()) == 0)
        return;
    settings.setValue(kRecentFilesKey, files);
    rebuildMenu();
}

void RecentFiles::rebuildMenu() {
    m_menu->clear();
    const QStringList files = QSettings().value(kRecentFilesKey).toStringList();
    for (int i = 0; i < files.size(); ++i) {
        const QString& path = files[i];
        QAction* action =
            m_menu->addAction(QStringLiteral("&%1  %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        action->setStatusTip(QDir::toNativeSeparators(path));
        action->setToolTip(QDir::toNativeSeparators(path));
        connect(action, &QAction::triggered, this, [this, path] { emit openRequested(path); });
    }
    if (files.isEmpty()) {
        m_menu->addAction(tr("No recent files"))->setEnabled(false);
        return;
    }
    m_menu->addSeparator();
    m_menu->addAction(tr("&Clear Recent Files"), this, [this] {
        QSettings().remove(kRecentFilesKey);
        rebuildMenu();
    });
}

} // namespace strata::gui
