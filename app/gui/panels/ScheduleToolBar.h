#pragma once
// The schedule toolbar: which target to schedule for (the presets, target files opened in this
// session, "Open target file…") and which strategy makes the starting schedule. It asks; the
// document decides, and the selectors show what the document then uses (showTarget(),
// showStrategy()), so a target file that fails to load leaves the previous one selected.

#include "schedule/Strategies.h"

#include <QToolBar>

class QComboBox;
class QUndoStack;

namespace strata::gui {

class ScheduleToolBar : public QToolBar {
    Q_OBJECT

  public:
    explicit ScheduleToolBar(QWidget* parent = nullptr);

    // Selects `key` (a preset name or a file path, added when new) without asking for it.
    void showTarget(const QString& key);
    void showStrategy(schedule::Strategy strategy);

    // Undo and Redo buttons for `stack` with fixed labels: the Edit menu's actions say what
    // they undo, but a button whose width changes with every edit would make the bar jump.
    // They have no shortcuts (the menu's actions own Ctrl+Z and Ctrl+Shift+Z).
    void addUndoRedo(QUndoStack* stack);

    QComboBox* targetBox() const { return m_target; }
    QComboBox* strategyBox() const { return m_strategy; }

  signals:
    void targetRequested(const QString& presetOrPath);
    void strategyRequested(strata::schedule::Strategy strategy);

  private:
    void onTargetActivated(int index);
    void openTargetFile();
    int indexOfTarget(const QString& key) const;
    // Labels `host` "host (calibrated)" when this computer's calibrated file exists, and adds
    // host-uncalibrated for the preset.
    void refreshHostEntry();

    QComboBox* m_target = nullptr;
    QComboBox* m_strategy = nullptr;
    QString m_shownTarget;
};

} // namespace strata::gui
