#pragma once
// One undoable change of the schedule document: it holds the revisions before and after (the
// immutable revisions themselves, not a diff), and undo/redo hand one of them back to the
// document (through `restore`), which makes it current again and checks it in the background
// when needed. The command knows nothing of the document: undo/redo only hand a revision back.

#include "document/Revision.h"

#include <QUndoCommand>
#include <functional>

namespace strata::gui {

class ScheduleCommand : public QUndoCommand {
  public:
    using Restore = std::function<void(const RevisionPtr&)>;
    // `restore` must stay callable while the command lives (the document owns the undo stack
    // the command goes on).
    ScheduleCommand(Restore restore, const QString& text, RevisionPtr before, RevisionPtr after);

    void undo() override;
    void redo() override;

    const RevisionPtr& before() const { return m_before; }
    const RevisionPtr& after() const { return m_after; }

  private:
    Restore m_restore;
    RevisionPtr m_before;
    RevisionPtr m_after;
};

} // namespace strata::gui
