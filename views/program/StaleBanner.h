#pragma once
// The strip over a compile's views that says they show an older schedule, with a button for
// the action that brings them up to date (Compile). Shared by the Program and Pipeline tabs.

#include <QWidget>

class QAction;
class QToolButton;

namespace strata::views::program {

class StaleBanner : public QWidget {
    Q_OBJECT

  public:
    explicit StaleBanner(QWidget* parent = nullptr);
    void setAction(QAction* action);

  private:
    QToolButton* m_button = nullptr;
};

} // namespace strata::views::program
