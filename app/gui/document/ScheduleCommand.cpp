#include "document/ScheduleCommand.h"

#include "document/ScheduleDocument.h"

namespace strata::gui {

ScheduleCommand::ScheduleCommand(ScheduleDocument* document, const QString& text,
                                 ScheduleState before, ScheduleState after)
    : QUndoCommand(text), m_document(document), m_before(std::move(before)),
      m_after(std::move(after)) {}

void ScheduleCommand::undo() {
    m_document->restore(m_before);
}

void ScheduleCommand::redo() {
    m_document->restore(m_after);
}

} // namespace strata::gui
