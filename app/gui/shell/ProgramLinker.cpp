#include "shell/ProgramLinker.h"

#include "views/graph/GraphView.h"
#include "views/program/ProgramListingModel.h"
#include "views/program/ProgramView.h"
#include "views/schedule/ScheduleTableView.h"

#include <QItemSelectionModel>
#include <QTimer>

namespace strata::gui {

ProgramLinker::ProgramLinker(views::graph::GraphView* graph,
                             views::schedule::ScheduleTableView* table,
                             views::program::ProgramView* program, QObject* parent)
    : QObject(parent), m_graph(graph), m_table(table), m_program(program) {
    connect(m_graph, &views::graph::GraphView::selectionChanged, this,
            &ProgramLinker::scheduleFollow);
    if (m_table->selectionModel())
        connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
                &ProgramLinker::scheduleFollow);
    connect(m_program, &views::program::ProgramView::instructionSelected, this,
            [this](compiler::InstrId id) { onInstructionSelected(id); });
}

void ProgramLinker::scheduleFollow() {
    if (m_pending)
        return;
    m_pending = true;
    QTimer::singleShot(0, this, &ProgramLinker::followSelection);
}

void ProgramLinker::followSelection() {
    m_pending = false;
    const std::vector<ir::OpId> ops = m_graph->selectedOps();
    if (ops.size() == 1) {
        m_program->highlightOp(ops.front());
        return;
    }
    if (const std::vector<int> blocks = m_graph->selectedBlocks(); blocks.size() == 1) {
        m_program->highlightBlock(blocks.front());
        return;
    }
    if (ops.empty() && m_table->selectedBlocks().size() == 1) {
        m_program->highlightBlock(m_table->selectedBlocks().front());
        return;
    }
    m_program->clearHighlight();
}

void ProgramLinker::onInstructionSelected(unsigned id) {
    const auto* model = m_program->model();
    const int row = model->rowOfInstruction(id);
    if (row < 0)
        return;
    const compiler::Instruction& in = model->instructionAt(row);
    // The graph's selection reaches the table through the ScheduleEditor, and comes back here
    // as a highlight of this op, which keeps this row current.
    if (in.from.op.valid())
        m_graph->selectOp(in.from.op);
    if (in.from.block >= 0 && m_table->currentBlock() != in.from.block)
        m_table->selectBlock(in.from.block);
}

} // namespace strata::gui
