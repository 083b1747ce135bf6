#pragma once
// What the window shows before a model is open: a drop zone saying how to open one, an Open
// button, and why the last open failed.

#include <QWidget>

class QLabel;

namespace strata::gui {

class WelcomePage : public QWidget {
    Q_OBJECT

  public:
    explicit WelcomePage(QWidget* parent = nullptr);

    void showError(const QString& fileName, const QString& reason);
    void clearError();

  signals:
    void openRequested();

  private:
    QLabel* m_error = nullptr;
};

} // namespace strata::gui
