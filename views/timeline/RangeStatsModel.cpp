#include "views/timeline/RangeStatsModel.h"

#include "views/Format.h"
#include "views/graph/GraphStyle.h"
#include "views/timeline/TimeFormat.h"

#include <set>

namespace strata::views::timeline {

using strata::timeline::RangeFigure;

RangeStatsModel::RangeStatsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RangeStatsModel::setStats(std::shared_ptr<const strata::timeline::TimelineData> data,
                               std::vector<strata::timeline::RangeStats> stats) {
    beginResetModel();
    m_data = std::move(data);
    m_stats = m_data ? std::move(stats) : std::vector<strata::timeline::RangeStats>{};
    m_stats.resize(std::min(m_stats.size(), m_data ? m_data->traces().size() : 0));
    m_lines.clear();
    std::set<trace::EventKind> kinds;
    std::set<std::uint16_t> paths;
    std::set<std::int32_t> blocks;
    for (const auto& s : m_stats) {
        for (const auto& [kind, f] : s.byKind)
            kinds.insert(kind);
        for (const auto& [path, f] : s.byPath)
            paths.insert(path);
        for (const auto& [block, f] : s.byBlock)
            blocks.insert(block);
    }
    for (trace::EventKind kind : kinds)
        m_lines.push_back({Group::Kind, static_cast<std::int64_t>(kind), QString::fromUtf8(trace::eventKindName(kind).data())});
    for (std::uint16_t path : paths) {
        const trace::Trace& first = *m_data->traces().front();
        const QString name = path < first.paths.size() ? QString::fromStdString(first.paths[path].name)
                                                       : QStringLiteral("path %1").arg(path);
        m_lines.push_back({Group::Path, path, name});
    }
    for (std::int32_t block : blocks)
        m_lines.push_back({Group::Block, block, block < 0 ? tr("no block") : QStringLiteral("B%1").arg(block)});
    const auto sameCounts = [](const RangeFigure* a, const RangeFigure* b) {
        return a == nullptr || b == nullptr ? a == b
                                            : a->events == b->events && a->bytes == b->bytes;
    };
    m_countsShared = m_stats.size() > 1;
    for (const Line& line : m_lines)
        for (std::size_t t = 1; t < m_stats.size(); ++t)
            m_countsShared = m_countsShared && sameCounts(figure(line, 0), figure(line, t));
    endResetModel();
}

int RangeStatsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_lines.size());
}

int RangeStatsModel::columnCount(const QModelIndex& parent) const {
    const int traces = static_cast<int>(m_stats.size());
    return parent.isValid() ? 0 : 2 + traces + (m_countsShared ? 2 : 2 * traces);
}

RangeStatsModel::Column RangeStatsModel::columnAt(int section) const {
    const auto traces = static_cast<int>(m_stats.size());
    const int column = section - 2;
    if (column < traces)
        return {static_cast<std::size_t>(column), 0};
    if (m_countsShared)
        return {0, column - traces + 1};
    const int count = column - traces; // events of every trace, then bytes of every trace
    return {static_cast<std::size_t>(count % traces), 1 + count / traces};
}

const RangeFigure* RangeStatsModel::figure(const Line& line, std::size_t trace) const {
    const auto& s = m_stats[trace];
    const auto find = [](const auto& map, auto key) -> const RangeFigure* {
        const auto it = map.find(key);
        return it == map.end() ? nullptr : &it->second;
    };
    switch (line.group) {
    case Group::Kind: return find(s.byKind, static_cast<trace::EventKind>(line.key));
    case Group::Path: return find(s.byPath, static_cast<std::uint16_t>(line.key));
    case Group::Block: return find(s.byBlock, static_cast<std::int32_t>(line.key));
    }
    return nullptr;
}

QVariant RangeStatsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Line& line = m_lines[static_cast<std::size_t>(index.row())];
    if (role == BlockRole)
        return line.group == Group::Block ? QVariant(static_cast<int>(line.key)) : QVariant();
    if (index.column() < 2) {
        static const QString kGroups[] = {tr("kind"), tr("path"), tr("block")};
        const QString& group = kGroups[static_cast<int>(line.group)];
        if (role == Qt::DisplayRole)
            return index.column() == 0 ? group : line.label;
        if (role == SortRole)
            return index.column() == 0 ? QVariant(static_cast<int>(line.group)) : QVariant(line.label);
        if (role == Qt::DecorationRole && index.column() == 1 && line.group == Group::Block && line.key >= 0)
            return graph::blockColor(static_cast<int>(line.key));
        return {};
    }
    const auto [trace, which] = columnAt(index.column());
    const RangeFigure* f = figure(line, trace);
    if (role == Qt::TextAlignmentRole)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == SortRole)
        return f == nullptr ? QVariant(qint64(-1))
               : which == 0 ? QVariant(qint64(f->timePs))
               : which == 1 ? QVariant(qulonglong(f->events))
                            : QVariant(qulonglong(f->bytes));
    if (role != Qt::DisplayRole)
        return {};
    if (f == nullptr)
        return QStringLiteral("\u2013");
    switch (which) {
    case 0: return formatDuration(static_cast<double>(f->timePs));
    case 1: return formatInteger(f->events);
    default: return formatBytes(f->bytes);
    }
}

QVariant RangeStatsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount() ||
        (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    if (section < 2) {
        if (role == Qt::ToolTipRole)
            return {};
        return section == 0 ? tr("Group") : tr("Name");
    }
    const auto [trace, which] = columnAt(section);
    if (role == Qt::ToolTipRole) {
        static const QString kTips[] = {
            tr("Time the events of run %1 spend in the range, summed over lanes"),
            tr("Events of run %1 in the range"),
            tr("Bytes moved by run %1's transfers in the range")};
        if (which > 0 && m_countsShared)
            return which == 1 ? tr("Events in the range, the same in every run")
                              : tr("Bytes moved in the range, the same in every run");
        return kTips[which].arg(trace + 1);
    }
    static const QString kFigures[] = {tr("Time"), tr("Events"), tr("Bytes")};
    const QString figureName = kFigures[which];
    if (m_stats.size() < 2 || (which > 0 && m_countsShared))
        return figureName;
    return QStringLiteral("%1 %2").arg(figureName).arg(trace + 1); // the runs are numbered in the panel
}

} // namespace strata::views::timeline
