#pragma once
// File > Open Recent: the last files opened (models and projects), newest first, kept in the
// settings. A file that failed to open because it is gone is dropped.

#include <QObject>
#include <QString>

class QMenu;

namespace strata::gui {

class RecentFiles : public QObject {
    Q_OBJECT

  public:
    static constexpr int kMaxFiles = 10;

    // Fills `menu` (owned by the caller) from the settings.
    RecentFiles(QMenu* menu, QObject* parent);

    void add(const QString& path);
    void remove(const QString& path);

  signals:
    void openRequested(const QString& path);

  private:
    void rebuildMenu();

    QMenu* m_menu;
};

} // namespace strata::gui
