#pragma once
// One undoable change of the schedule document: it stores the state before and after (the
// schedules themselves, shared, not a diff), and undo/redo hand one of them back to the
// document (through `restore`), which shows it and checks it again in the background when
// needed. The command knows nothing of the document: undo/redo only hand a state back.

#include "document/ScheduleState.h"

#include <QUndoCommand>
#include <functional>

namespace strata::gui {

class ScheduleCommand : public QUndoCommand {
  public:
    using Restore = std::function<void(const ScheduleState&)>;
    // `restore` must stay callable while the command lives (the document owns the undo stack
    // the command goes on).
    ScheduleCommand(Restore restore, const QString& text, ScheduleState before,
                    ScheduleState after);

    void undo() override;
    void redo() override;

    const ScheduleState& before() const { return m_before; }
    const ScheduleState& after() const { return m_after; }

  private:
    Restore m_restore;
    ScheduleState m_before;
    ScheduleState m_after;
};

} // namespace strata::gui
