#pragma once
// The Program listing's part in the window's Selection: an instruction picked in the listing
// selects it with its op and block; the listing follows what others select: a picked
// instruction or event becomes the current row when the listing holds it (and it comes from
// the same op: the listing may be of another compile), an op or a block highlights its
// instructions.

#include <QObject>

namespace strata::views::program {
class ProgramView;
}

namespace strata::gui {

class Selection;

class ProgramSelection : public QObject {
    Q_OBJECT

  public:
    ProgramSelection(views::program::ProgramView* program, Selection* selection,
                     QObject* parent = nullptr);

  public slots:
    // Shows the selection in the listing (a new compile's listing needs it again).
    void follow();

  private:
    void onInstructionSelected(unsigned id);

    views::program::ProgramView* m_program;
    Selection* m_selection;
};

} // namespace strata::gui
