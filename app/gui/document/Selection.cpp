#include "document/Selection.h"

#include "document/ScheduleDocument.h"

#include <QScopedValueRollback>
#include <algorithm>

namespace strata::gui {

namespace {

template <class T> void sortUnique(std::vector<T>& values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
}

} // namespace

Selection::Selection(const ScheduleDocument* document, QObject* parent)
    : QObject(parent), m_document(document) {}

std::optional<ir::OpId> Selection::singleOp() const {
    if (m_state.ops.size() != 1)
        return std::nullopt;
    return m_state.ops.front();
}

int Selection::singleBlock() const {
    return m_state.blocks.size() == 1 ? m_state.blocks.front() : -1;
}

void Selection::addBlocksOfOps(State& state) const {
    for (ir::OpId op : state.ops)
        if (const int block = m_document ? m_document->blockOfOp(op) : -1; block >= 0)
            state.blocks.push_back(block);
    sortUnique(state.blocks);
}

void Selection::selectOps(std::vector<ir::OpId> ops, Origin origin, std::vector<int> blocks) {
    State state;
    state.ops = std::move(ops);
    state.blocks = std::move(blocks);
    addBlocksOfOps(state);
    set(std::move(state), origin);
}

void Selection::selectBlocks(std::vector<int> blocks, Origin origin) {
    State state;
    state.blocks = std::move(blocks);
    sortUnique(state.blocks);
    set(std::move(state), origin);
}

void Selection::selectInstructions(std::vector<compiler::InstrId> ids,
                                   const compiler::Program* program, Origin origin) {
    State state;
    state.instructions = std::move(ids);
    if (program)
        for (compiler::InstrId id : state.instructions)
            if (id < program->instructions.size())
                if (const ir::OpId op = program->instructions[id].from.op;
                    op.valid() &&
                    std::find(state.ops.begin(), state.ops.end(), op) == state.ops.end())
                    state.ops.push_back(op);
    addBlocksOfOps(state);
    set(std::move(state), origin);
}

void Selection::clear(Origin origin) {
    set({}, origin);
}

void Selection::set(State state, Origin origin) {
    if (m_delivering || state == m_state)
        return;
    m_state = std::move(state);
    m_origin = origin;
    const QScopedValueRollback delivering(m_delivering, true);
    emit changed(origin);
}

} // namespace strata::gui
