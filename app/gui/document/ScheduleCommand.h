#pragma once
// One undoable change of the schedule document: it stores the state before and after (the
// schedules themselves, shared, not a diff), and undo/redo hand one of them back to the
// document, which shows it and checks it again in the background when needed.

#include "document/ScheduleState.h"

#include <QUndoCommand>

namespace strata::gui {

class ScheduleDocument;

class ScheduleCommand : public QUndoCommand {
  public:
    // `document` must outlive the command (it owns the undo stack the command goes on).
    ScheduleCommand(ScheduleDocument* document, const QString& text, ScheduleState before,
                    ScheduleState after);

    void undo() override;
    void redo() override;

    const ScheduleState& before() const { return m_before; }
    const ScheduleState& after() const { return m_after; }

  private:
    ScheduleDocument* m_document;
    ScheduleState m_before;
    ScheduleState m_after;
};

} // namespace strata::gui
