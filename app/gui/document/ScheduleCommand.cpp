#include "document/ScheduleCommand.h"

namespace strata::gui {

ScheduleCommand::ScheduleCommand(Restore restore, const QString& text, RevisionPtr before,
                                 RevisionPtr after)
    : QUndoCommand(text), m_restore(std::move(restore)), m_before(std::move(before)),
      m_after(std::move(after)) {}

void ScheduleCommand::undo() {
    m_restore(m_before);
}

void ScheduleCommand::redo() {
    m_restore(m_after);
}

} // namespace strata::gui
