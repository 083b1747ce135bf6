#include "views/program/ProgramListingModel.h"

#include "compiler/emit/AsmEmitter.h"

#include <QColor>
#include <QRegularExpression>
#include <algorithm>
#include <unordered_map>

namespace strata::views::program {

namespace {

using compiler::InstrId;
using compiler::InstrKind;
using compiler::Instruction;

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

bool containsFolded(const std::string& haystack, const QString& needle) {
    return fromStd(haystack).contains(needle, Qt::CaseInsensitive);
}

// The word the assembly starts the instruction with.
const std::string& mnemonicOf(const Instruction& in) {
    static const std::string kWait = "wait", kBarrier = "barrier";
    if (const auto* t = std::get_if<compiler::Transfer>(&in.body))
        return t->path;
    if (const auto* c = std::get_if<compiler::Compute>(&in.body))
        return c->opType;
    return in.kind() == InstrKind::Wait ? kWait : kBarrier;
}

} // namespace

ProgramListingModel::ProgramListingModel(QObject* parent) : QAbstractTableModel(parent) {}

void ProgramListingModel::setProgram(std::shared_ptr<const ir::Graph> graph,
                                     std::shared_ptr<const compiler::Program> program) {
    beginResetModel();
    m_graph = program ? std::move(graph) : nullptr;
    m_program = m_graph ? std::move(program) : nullptr;
    m_order.clear();
    m_highlight = {};
    m_textCache.fill({});
    if (m_program) {
        m_order.reserve(m_program->instructions.size());
        for (const auto& stream : m_program->streams)
            m_order.insert(m_order.end(), stream.begin(), stream.end());
        // A core or block this program lacks would show nothing: drop it from the filter.
        if (m_filter.core >= m_program->cores)
            m_filter.core = -1;
        const std::vector<int> blocks = blockIds();
        if (m_filter.block >= 0 &&
            !std::binary_search(blocks.begin(), blocks.end(), m_filter.block))
            m_filter.block = -1;
    }
    rebuildRows();
    countHighlighted();
    endResetModel();
}

void ProgramListingModel::setFilter(ListingFilter filter) {
    if (filter == m_filter)
        return;
    beginResetModel();
    m_filter = std::move(filter);
    rebuildRows();
    countHighlighted();
    endResetModel();
}

void ProgramListingModel::rebuildRows() {
    m_rows.clear();
    m_rowOf.assign(m_program ? m_program->instructions.size() : 0, -1);
    if (!m_program)
        return;
    const QString needle = m_filter.search.trimmed();
    // Names are matched once per op and value, not once per instruction.
    std::vector<char> opHit, valueHit;
    std::unordered_map<std::string, bool> mnemonicHit;
    static const QRegularExpression kIdLike(QStringLiteral("^i?\\d+$"),
                                            QRegularExpression::CaseInsensitiveOption);
    const bool idLike = kIdLike.match(needle).hasMatch();
    if (!needle.isEmpty()) {
        opHit.resize(m_graph->ops.size());
        for (std::size_t i = 0; i < m_graph->ops.size(); ++i)
            opHit[i] = containsFolded(m_graph->ops[i].name, needle);
        valueHit.resize(m_graph->values.size());
        for (std::size_t i = 0; i < m_graph->values.size(); ++i)
            valueHit[i] = containsFolded(m_graph->values[i].name, needle);
    }
    for (InstrId id : m_order) {
        const Instruction& in = m_program->instructions[id];
        if (m_filter.core >= 0 && in.core != m_filter.core)
            continue;
        if (m_filter.kind && in.kind() != *m_filter.kind)
            continue;
        if (m_filter.block >= 0 && in.from.block != m_filter.block)
            continue;
        if (!needle.isEmpty()) {
            const std::string& mnemonic = mnemonicOf(in);
            auto hit = mnemonicHit.find(mnemonic);
            if (hit == mnemonicHit.end())
                hit = mnemonicHit.emplace(mnemonic, containsFolded(mnemonic, needle)).first;
            const bool named = in.from.op.valid() && opHit[in.from.op.index];
            const auto* t = std::get_if<compiler::Transfer>(&in.body);
            const bool moved = t && t->value.valid() && valueHit[t->value.index];
            if (!hit->second && !named && !moved &&
                !(idLike && idText(in.id).contains(needle, Qt::CaseInsensitive)))
                continue;
        }
        m_rowOf[id] = static_cast<int>(m_rows.size());
        m_rows.push_back(id);
    }
}

void ProgramListingModel::setHighlight(ListingHighlight highlight) {
    if (highlight == m_highlight)
        return;
    m_highlight = highlight;
    countHighlighted();
    if (!m_rows.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1),
                         {Qt::BackgroundRole, HighlightedRole});
}

void ProgramListingModel::countHighlighted() {
    m_highlightedCount = 0;
    if (m_highlight.isEmpty())
        return;
    for (int row = 0; row < rowCount(); ++row)
        m_highlightedCount += isHighlighted(row) ? 1 : 0;
}

bool ProgramListingModel::isHighlighted(int row) const {
    if (row < 0 || row >= rowCount() || m_highlight.isEmpty())
        return false;
    const Instruction& in = instructionAt(row);
    if (m_highlight.op)
        return in.computes(*m_highlight.op); // its own op or a fused epilogue's
    return in.from.block == m_highlight.block;
}

int ProgramListingModel::nextHighlighted(int row, bool forward) const {
    const int n = rowCount();
    if (n == 0 || m_highlightedCount == 0)
        return -1;
    const int step = forward ? 1 : -1;
    int r = std::clamp(row, -1, n);
    for (int i = 0; i < n; ++i) {
        r = ((r + step) % n + n) % n;
        if (isHighlighted(r))
            return r;
    }
    return -1;
}

int ProgramListingModel::instructionCount() const {
    return m_program ? static_cast<int>(m_program->instructions.size()) : 0;
}

int ProgramListingModel::rowOfInstruction(InstrId id) const {
    return id < m_rowOf.size() ? m_rowOf[id] : -1;
}

const Instruction& ProgramListingModel::instructionAt(int row) const {
    return m_program->instructions[m_rows[static_cast<std::size_t>(row)]];
}

std::vector<int> ProgramListingModel::blockIds() const {
    std::vector<int> ids;
    if (!m_program)
        return ids;
    for (const compiler::BlockCode& b : m_program->blocks)
        ids.push_back(b.block);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

int ProgramListingModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ProgramListingModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

const QString& ProgramListingModel::textOf(const Instruction& in) const {
    CachedText& slot = m_textCache[in.id % m_textCache.size()];
    if (slot.id != in.id) {
        slot.id = in.id;
        slot.text = fromStd(compiler::instructionText(in, *m_program, *m_graph));
    }
    return slot.text;
}

QVariant ProgramListingModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Instruction& in = instructionAt(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case IdColumn:
            return idText(in.id);
        case CoreColumn:
            return in.core;
        case KindColumn:
            return QString::fromLatin1(compiler::instrKindName(in.kind()));
        case BlockColumn:
            return in.from.block >= 0 ? QStringLiteral("B%1").arg(in.from.block) : QString();
        case OpColumn:
            return in.from.op.valid() ? fromStd(m_graph->op(in.from.op).name) : QString();
        case TextColumn:
            return textOf(in);
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == TextColumn || index.column() == OpColumn)
            return QStringLiteral("%1  %2").arg(idText(in.id), textOf(in));
        return {};
    case Qt::ForegroundRole:
        if (index.column() == KindColumn)
            return kindColor(in.kind());
        // Waits and barriers are bookkeeping: dimmer than the work around them.
        if (index.column() == TextColumn &&
            (in.kind() == InstrKind::Wait || in.kind() == InstrKind::Barrier))
            return kindColor(in.kind());
        return {};
    case Qt::BackgroundRole:
        if (isHighlighted(index.row()))
            return QColor(0xFF, 0xD5, 0x4F, 90);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == CoreColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    case InstrIdRole:
        return in.id;
    case OpIdRole:
        return in.from.op.valid() ? static_cast<int>(in.from.op.index) : -1;
    case BlockIdRole:
        return in.from.block;
    case KindRole:
        return static_cast<int>(in.kind());
    case HighlightedRole:
        return isHighlighted(index.row());
    }
    return {};
}

QVariant ProgramListingModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case IdColumn:
        return tr("Id");
    case CoreColumn:
        return tr("Core");
    case KindColumn:
        return tr("Kind");
    case BlockColumn:
        return tr("Block");
    case OpColumn:
        return tr("Op");
    case TextColumn:
        return tr("Instruction");
    }
    return {};
}

QString ProgramListingModel::idText(InstrId id) {
    return QStringLiteral("i%1").arg(id, 6, 10, QLatin1Char('0'));
}

QColor ProgramListingModel::kindColor(InstrKind kind) {
    switch (kind) {
    case InstrKind::Transfer:
        return QColor(0x2F, 0x6D, 0xB0);
    case InstrKind::Compute:
        return QColor(0x3B, 0x8A, 0x3E);
    case InstrKind::Wait:
        return QColor(0x8A, 0x8A, 0x8A);
    case InstrKind::Barrier:
        return QColor(0x9A, 0x5B, 0x8E);
    }
    return QColor(0x8A, 0x8A, 0x8A);
}

} // namespace strata::views::program
