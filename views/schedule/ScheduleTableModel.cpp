#include "views/schedule/ScheduleTableModel.h"

#include "views/Format.h"
#include "views/graph/GraphScene.h"
#include "views/graph/GraphStyle.h"
#include "views/schedule/TileText.h"

#include <QBrush>
#include <QColor>
#include <cmath>
#include <unordered_map>

namespace strata::views::schedule {

namespace {

using M = ScheduleTableModel;
namespace sch = strata::schedule;

constexpr int kMaxOpsInToolTip = 24;

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

// "a/b/c/x → a/b/d/y" reads as "a/b/c/x → …/d/y": the shared path is said once.
QString opRange(const QString& first, const QString& last) {
    qsizetype shared = 0;
    for (qsizetype i = 0; i < first.size() && i < last.size() && first[i] == last[i]; ++i)
        if (first[i] == QLatin1Char('/'))
            shared = i + 1;
    if (shared <= 1)
        return QStringLiteral("%1 \u2192 %2").arg(first, last);
    return QStringLiteral("%1 \u2192 \u2026/%2").arg(first, last.mid(shared));
}

QString percent(double fraction) {
    if (fraction <= 0)
        return QStringLiteral("\u2014"); // no recompute reads faster as a dash than as "0.0 %"
    return QString::number(fraction * 100, 'f', fraction < 0.1 ? 1 : 0) + QStringLiteral(" %");
}

// "+12.3 %", "-4.0 %": the sign says which way the prediction is off.
// One kind's seconds of a split, by its column.
double splitOf(const ScheduleTableModel::KindSplit& split, int column) {
    return column == ScheduleTableModel::ComputeSplitColumn    ? split.compute
           : column == ScheduleTableModel::TransferSplitColumn ? split.transfer
                                                               : split.wait;
}

QString signedPercent(double fraction) {
    return QStringLiteral("%1%2 %").arg(fraction >= 0 ? QStringLiteral("+") : QString(),
                                       QString::number(fraction * 100, 'f', 1));
}

} // namespace

ScheduleTableModel::ScheduleTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void ScheduleTableModel::setSnapshot(ScheduleSnapshot snapshot) {
    beginResetModel();
    m_rows = buildRows(snapshot);
    m_snapshot = std::move(snapshot);
    endResetModel();
}

void ScheduleTableModel::setPredictions(const std::unordered_map<int, double>& secondsByBlock) {
    for (Row& row : m_rows) {
        const auto it = secondsByBlock.find(row.id);
        row.predictedSeconds =
            it == secondsByBlock.end() ? std::nullopt : std::optional<double>(it->second);
    }
    if (!m_rows.empty())
        emit dataChanged(index(0, PredictedColumn),
                         index(static_cast<int>(m_rows.size()) - 1, PredictedColumn));
}

void ScheduleTableModel::setMeasurements(const std::unordered_map<int, BlockMeasurement>& byBlock) {
    for (Row& row : m_rows) {
        const auto it = byBlock.find(row.id);
        row.measurement =
            it == byBlock.end() ? std::nullopt : std::optional<BlockMeasurement>(it->second);
    }
    if (!m_rows.empty())
        emit dataChanged(index(0, MeasuredColumn),
                         index(static_cast<int>(m_rows.size()) - 1, WaitSplitColumn));
}

std::vector<ScheduleTableModel::Row> ScheduleTableModel::buildRows(const ScheduleSnapshot& snap) {
    std::vector<Row> rows;
    if (!snap.schedule || !snap.graph)
        return rows;
    const ir::Graph& graph = *snap.graph;
    std::unordered_map<int, const sch::BlockAnalysis*> analysisOf;
    std::unordered_map<std::string, std::size_t> rowOfName;
    if (snap.check)
        for (const sch::BlockAnalysis& a : snap.check->analysis.blocks)
            analysisOf[a.blockId] = &a;

    rows.reserve(snap.schedule->blocks.size());
    for (const sch::Block& block : snap.schedule->blocks) {
        Row row;
        row.id = block.id;
        row.opCount = static_cast<int>(block.ops.size());
        auto opName = [&](ir::OpId op) {
            return op.index < graph.ops.size() ? fromStd(graph.ops[op.index].name)
                                               : QStringLiteral("?");
        };
        if (!block.ops.empty()) {
            row.firstOp = opName(block.ops.front());
            row.lastOp = opName(block.ops.back());
        }
        row.mp = block.mp;
        row.buffering = block.buffering;
        row.tileSpec = tileSpecText(block.tile);
        row.tileResolved = row.tileSpec;
        if (snap.target)
            row.sramCapacity = snap.target->workingMemoryBytes();
        if (auto it = analysisOf.find(block.id); it != analysisOf.end() && it->second->analysed) {
            const sch::BlockAnalysis& a = *it->second;
            row.analysed = true;
            row.tileResolved = formatShape(a.cost.grid.extents);
            if (block.tile.isAuto())
                row.tileResolved += QLatin1Char('*');
            row.tiles = a.cost.tiles();
            row.sramPeak = a.cost.sramPeakBytes;
            row.sramCapacity = a.workingMemoryBytes;
            row.dramBytes = a.dramBytes();
            row.flops = a.cost.flops;
            row.recompute = a.cost.recomputeRatio();
        }
        rowOfName[sch::blockName(block.id)] = rows.size();
        rows.push_back(std::move(row));
    }

    if (snap.check) {
        for (const Diagnostic& d : snap.check->diagnostics) {
            const auto it = rowOfName.find(d.where.block);
            if (it == rowOfName.end() || d.severity == Severity::Note)
                continue;
            Row& row = rows[it->second];
            (d.severity == Severity::Error ? row.errors : row.warnings) << fromStd(d.message);
            row.problemDetails << (d.where.node.empty()
                                       ? fromStd(d.message)
                                       : QStringLiteral("%1: %2").arg(fromStd(d.where.node),
                                                                      fromStd(d.message)));
        }
    }
    return rows;
}

int ScheduleTableModel::rowOfBlock(int id) const {
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].id == id)
            return static_cast<int>(i);
    return -1;
}

int ScheduleTableModel::blockAt(int row) const {
    if (row < 0 || static_cast<std::size_t>(row) >= m_rows.size())
        return -1;
    return m_rows[static_cast<std::size_t>(row)].id;
}

int ScheduleTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ScheduleTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

bool ScheduleTableModel::isNumeric(int column) {
    switch (column) {
    case OpsColumn:
    case MpColumn:
    case TilesColumn:
    case SramColumn:
    case DramColumn:
    case FlopsColumn:
    case RecomputeColumn:
    case PredictedColumn:
    case MeasuredColumn:
    case PredictionErrorColumn:
    case ComputeSplitColumn:
    case TransferSplitColumn:
    case WaitSplitColumn:
        return true;
    default:
        return false;
    }
}

Qt::ItemFlags ScheduleTableModel::flags(const QModelIndex& index) const {
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (!index.isValid())
        return f;
    const int column = index.column();
    if (column == MpColumn || column == TileColumn || column == BufferingColumn)
        f |= Qt::ItemIsEditable;
    return f;
}

QVariant ScheduleTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return displayData(row, column);
    case Qt::EditRole:
        switch (column) {
        case MpColumn:
            return row.mp;
        case BufferingColumn:
            return row.buffering;
        case TileColumn:
            return row.tileSpec;
        default:
            return displayData(row, column);
        }
    case Qt::ToolTipRole:
        return toolTip(row, column);
    case Qt::DecorationRole:
        if (column == BlockColumn)
            return graph::blockColor(row.id);
        return {};
    case Qt::ForegroundRole:
        if (column == PredictionErrorColumn && row.measurement) {
            const double error = std::abs(row.measurement->error);
            if (error >= kLargeError)
                return QBrush(QColor(0xC6, 0x28, 0x28));
            if (error >= kNotableError)
                return QBrush(QColor(0xB2, 0x6A, 0x00));
        }
        if (column == ErrorColumn && !row.errors.isEmpty())
            return QBrush(QColor(0xC6, 0x28, 0x28));
        if (column == ErrorColumn && !row.warnings.isEmpty())
            return QBrush(QColor(0xB2, 0x6A, 0x00));
        return {};
    case Qt::BackgroundRole:
        if (!row.errors.isEmpty())
            return QBrush(QColor(0xFD, 0xEC, 0xEC));
        return {};
    case Qt::TextAlignmentRole:
        return isNumeric(column) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                 : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case SortRole:
        return sortData(row, column);
    case BlockIdRole:
        return row.id;
    case SramFractionRole:
        if (!row.analysed || row.sramCapacity == 0)
            return {};
        return static_cast<double>(row.sramPeak) / static_cast<double>(row.sramCapacity);
    case MaxMpRole:
        return m_snapshot.target ? m_snapshot.target->maxMp() : 1;
    case HasErrorRole:
        return !row.errors.isEmpty();
    case PredictionErrorRole:
        return row.measurement ? QVariant(row.measurement->error) : QVariant();
    default:
        return {};
    }
}

QVariant ScheduleTableModel::displayData(const Row& row, int column) const {
    const bool a = row.analysed;
    switch (column) {
    case BlockColumn:
        return fromStd(sch::blockName(row.id));
    case OpsColumn:
        return row.opCount;
    case RangeColumn:
        if (row.opCount <= 1)
            return row.firstOp;
        return opRange(row.firstOp, row.lastOp);
    case MpColumn:
        return row.mp;
    case TileColumn:
        return row.tileResolved;
    case BufferingColumn:
        return row.buffering == 2   ? tr("double")
               : row.buffering == 1 ? tr("single")
                                    : QString::number(row.buffering);
    case TilesColumn:
        return a ? formatInteger(static_cast<std::uint64_t>(row.tiles)) : QString();
    case SramColumn:
        return a ? QStringLiteral("%1 / %2").arg(formatBytes(row.sramPeak),
                                                 formatBytes(row.sramCapacity))
                 : QString();
    case DramColumn:
        return a ? formatBytes(row.dramBytes) : QString();
    case FlopsColumn:
        return a ? formatFlops(row.flops) : QString();
    case RecomputeColumn:
        return a ? percent(row.recompute) : QString();
    case PredictedColumn:
        return row.predictedSeconds ? graph::formatSeconds(*row.predictedSeconds) : QString();
    case MeasuredColumn:
        return row.measurement ? graph::formatSeconds(row.measurement->measuredSeconds) : QString();
    case PredictionErrorColumn:
        return row.measurement ? signedPercent(row.measurement->error) : QString();
    case ComputeSplitColumn:
    case TransferSplitColumn:
    case WaitSplitColumn: {
        if (!row.measurement || !row.measurement->predictedSplit || !row.measurement->measuredSplit)
            return QString();
        return QStringLiteral("%1 / %2").arg(
            graph::formatSeconds(splitOf(*row.measurement->predictedSplit, column)),
            graph::formatSeconds(splitOf(*row.measurement->measuredSplit, column)));
    }
    case ErrorColumn:
        if (!row.errors.isEmpty())
            return row.errors.front();
        if (!row.warnings.isEmpty())
            return row.warnings.front();
        return QString();
    default:
        return {};
    }
}

QVariant ScheduleTableModel::sortData(const Row& row, int column) const {
    switch (column) {
    case BlockColumn:
        return row.id;
    case OpsColumn:
        return row.opCount;
    case RangeColumn:
        return row.firstOp.toLower();
    case MpColumn:
        return row.mp;
    case TileColumn:
        return row.tiles; // finer grids have smaller tiles
    case BufferingColumn:
        return row.buffering;
    case TilesColumn:
        return row.tiles;
    case SramColumn:
        return row.sramCapacity ? static_cast<double>(row.sramPeak) / row.sramCapacity : 0.0;
    case DramColumn:
        return QVariant::fromValue<qulonglong>(row.dramBytes);
    case FlopsColumn:
        return row.flops;
    case RecomputeColumn:
        return row.recompute;
    case PredictedColumn:
        return row.predictedSeconds.value_or(-1.0); // none sorts first
    case MeasuredColumn:
        return row.measurement ? row.measurement->measuredSeconds : -1.0;
    case PredictionErrorColumn:
        // By size, so the worst predictions come first when sorted descending; none sorts last.
        return row.measurement ? std::abs(row.measurement->error) : -1.0;
    case ComputeSplitColumn:
    case TransferSplitColumn:
    case WaitSplitColumn:
        // By the measured time; none sorts first.
        return row.measurement && row.measurement->measuredSplit
                   ? splitOf(*row.measurement->measuredSplit, column)
                   : -1.0;
    case ErrorColumn:
        // Errors first when sorted descending, then warnings, then the rest by id.
        return (row.errors.isEmpty() ? 0 : 2) + (row.warnings.isEmpty() ? 0 : 1);
    default:
        return {};
    }
}

QVariant ScheduleTableModel::toolTip(const Row& row, int column) const {
    switch (column) {
    case RangeColumn: {
        const std::size_t index = static_cast<std::size_t>(rowOfBlock(row.id));
        const sch::Block& block = m_snapshot.schedule->blocks[index];
        QStringList lines;
        for (std::size_t i = 0; i < block.ops.size() && i < kMaxOpsInToolTip; ++i) {
            const ir::Op& op = m_snapshot.graph->op(block.ops[i]);
            lines << QStringLiteral("%1 <span style='color:#5f6670'>%2</span>")
                         .arg(fromStd(op.name).toHtmlEscaped(), fromStd(op.type).toHtmlEscaped());
        }
        if (block.ops.size() > kMaxOpsInToolTip)
            lines << tr("and %1 more").arg(block.ops.size() - kMaxOpsInToolTip);
        return QStringLiteral("<b>Block %1</b> \u00b7 %2 ops<br>%3")
            .arg(row.id)
            .arg(row.opCount)
            .arg(lines.join(QStringLiteral("<br>")));
    }
    case TileColumn:
        if (row.tileSpec == QLatin1String("auto"))
            return row.analysed ? tr("Chosen automatically: %1 (%2 tiles)")
                                      .arg(row.tileResolved.chopped(1))
                                      .arg(row.tiles)
                                : tr("Chosen automatically");
        return tr("Set to %1").arg(row.tileSpec);
    case SramColumn:
        if (!row.analysed)
            return {};
        return tr("Largest working set of a tile: %1 of %2 (%3 %)")
            .arg(formatBytes(row.sramPeak), formatBytes(row.sramCapacity))
            .arg(row.sramCapacity ? 100.0 * static_cast<double>(row.sramPeak) / row.sramCapacity
                                  : 0.0,
                 0, 'f', 0);
    case PredictionErrorColumn:
        if (!row.measurement)
            return {};
        return tr("Predicted %1, measured %2: the prediction is %3 %4")
            .arg(row.predictedSeconds ? graph::formatSeconds(*row.predictedSeconds) : tr("?"),
                 graph::formatSeconds(row.measurement->measuredSeconds),
                 QString::number(std::abs(row.measurement->error) * 100, 'f', 1) + QStringLiteral(" %"),
                 row.measurement->error >= 0 ? tr("too slow") : tr("too fast"));
    case ErrorColumn:
        return row.problemDetails.isEmpty() ? QVariant()
                                            : QVariant(row.problemDetails.join(QLatin1Char('\n')));
    default:
        return {};
    }
}

QVariant ScheduleTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::TextAlignmentRole)
        return isNumeric(section) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                  : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case MpColumn:
            return tr("Cores the block's tiles are spread over (double-click to edit)");
        case TileColumn:
            return tr("Tile of the block's anchor output; * chosen automatically (double-click "
                      "to set, e.g. 1x16x8x8 or auto)");
        case BufferingColumn:
            return tr("Double buffering loads the next tile while this one computes");
        case TilesColumn:
            return tr("Tiles the anchor output is cut into");
        case SramColumn:
            return tr("Largest per-tile working set over one core's working memory");
        case DramColumn:
            return tr("DRAM bytes read and written by the block");
        case FlopsColumn:
            return tr("FLOPs computed, halo recompute included");
        case RecomputeColumn:
            return tr("Halo recompute over the ops' own FLOPs");
        case PredictedColumn:
            return tr("The emulator's time for the block, first event to last, over all its "
                      "cores (updated after each edit)");
        case MeasuredColumn:
            return tr("The block's time in the last Run on Host of this schedule (Ctrl+R)");
        case PredictionErrorColumn:
            return tr("(predicted - measured) / measured: + the emulator is too slow, - too fast; "
                      "amber from 10 %, red from 25 %");
        case ComputeSplitColumn:
            return tr(
                "Time the block's computes took, summed over its cores: predicted / measured");
        case TransferSplitColumn:
            return tr(
                "Time the block's transfers took, summed over its cores: predicted / measured");
        case WaitSplitColumn:
            return tr("Time the block's cores waited on transfers: predicted / measured");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case BlockColumn:
        return tr("Block");
    case OpsColumn:
        return tr("Ops");
    case RangeColumn:
        return tr("First \u2192 last op");
    case MpColumn:
        return tr("MP");
    case TileColumn:
        return tr("Tile");
    case BufferingColumn:
        return tr("Buffering");
    case TilesColumn:
        return tr("Tiles");
    case SramColumn:
        return tr("SRAM peak");
    case DramColumn:
        return tr("DRAM");
    case FlopsColumn:
        return tr("FLOPs");
    case RecomputeColumn:
        return tr("Recompute");
    case PredictedColumn:
        return tr("Predicted");
    case MeasuredColumn:
        return tr("Measured");
    case PredictionErrorColumn:
        return tr("Error");
    case ComputeSplitColumn:
        return tr("Compute");
    case TransferSplitColumn:
        return tr("Transfers");
    case WaitSplitColumn:
        return tr("Waits");
    case ErrorColumn:
        return tr("Check");
    default:
        return {};
    }
}

bool ScheduleTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole ||
        !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return false;
    const Row& row = m_rows[static_cast<std::size_t>(index.row())];
    switch (index.column()) {
    case MpColumn:
        if (value.toInt() != row.mp)
            emit mpEditRequested(row.id, value.toInt());
        break;
    case BufferingColumn:
        if (value.toInt() != row.buffering)
            emit bufferingEditRequested(row.id, value.toInt());
        break;
    case TileColumn:
        if (value.toString().trimmed() != row.tileSpec)
            emit tileEditRequested(row.id, value.toString());
        break;
    default:
        break;
    }
    return false;
}

} // namespace strata::views::schedule
