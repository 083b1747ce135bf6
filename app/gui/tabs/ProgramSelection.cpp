#include "tabs/ProgramSelection.h"

#include "document/Selection.h"
#include "views/program/ProgramListingModel.h"
#include "views/program/ProgramView.h"

namespace strata::gui {

ProgramSelection::ProgramSelection(views::program::ProgramView* program, Selection* selection,
                                   QObject* parent)
    : QObject(parent), m_program(program), m_selection(selection) {
    connect(m_selection, &Selection::changed, this, [this](Selection::Origin origin) {
        if (origin != Selection::Origin::Program)
            follow();
    });
    connect(m_program, &views::program::ProgramView::instructionSelected, this,
            [this](compiler::InstrId id) { onInstructionSelected(id); });
}

void ProgramSelection::follow() {
    const auto* listing = m_program->model();
    const std::optional<ir::OpId> op = m_selection->singleOp();
    if (!m_selection->instructions().empty()) {
        const compiler::InstrId id = m_selection->instructions().front();
        const int row = listing->rowOfInstruction(id);
        if (row >= 0 && (m_selection->ops().empty() || listing->instructionAt(row).from.op == op)) {
            if (op)
                m_program->highlightOp(*op);
            m_program->selectInstruction(id);
            return;
        }
    }
    if (op)
        m_program->highlightOp(*op);
    else if (const int block = m_selection->singleBlock(); block >= 0)
        m_program->highlightBlock(block);
    else
        m_program->clearHighlight();
}

void ProgramSelection::onInstructionSelected(unsigned id) {
    const auto* listing = m_program->model();
    const int row = listing->rowOfInstruction(id);
    if (row < 0)
        return;
    const compiler::Instruction& in = listing->instructionAt(row);
    Selection::State state;
    if (in.from.op.valid())
        state.ops.push_back(in.from.op);
    if (in.from.block >= 0)
        state.blocks.push_back(in.from.block);
    state.instructions.push_back(id);
    m_selection->set(std::move(state), Selection::Origin::Program);
    // The op's other instructions light up too; the row picked stays current.
    if (const ir::OpId op = listing->instructionAt(row).from.op; op.valid())
        m_program->highlightOp(op);
}

} // namespace strata::gui
