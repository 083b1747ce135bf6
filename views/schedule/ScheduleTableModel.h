#pragma once
// One row per fusion block of a schedule revision: its ops, knobs, tiling and cost as the
// schedule check found them, and the check's errors for the block. The model adapts one
// immutable snapshot at a time (reset as a whole); edits of the knob columns are forwarded as
// requests and come back, if accepted, as the next snapshot.

#include "views/schedule/ScheduleSnapshot.h"

#include <QAbstractTableModel>
#include <QStringList>
#include <optional>
#include <unordered_map>
#include <vector>

namespace strata::views::schedule {

class ScheduleTableModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Column {
        BlockColumn,
        OpsColumn,
        RangeColumn,
        MpColumn,
        TileColumn,
        BufferingColumn,
        TilesColumn,
        SramColumn,
        DramColumn,
        FlopsColumn,
        RecomputeColumn,
        PredictedColumn,
        MeasuredColumn,        // the block's time in a Run on Host of this schedule
        PredictionErrorColumn, // (predicted - measured) / measured, signed
        ComputeSplitColumn,    // the block's compute time, predicted / measured
        TransferSplitColumn,   // its transfer time, likewise
        WaitSplitColumn,       // its wait time, likewise
        ErrorColumn,
        ColumnCount
    };

    enum Role {
        // Numbers for numeric columns (so a proxy sorts 9 before 10), lower-case text otherwise.
        SortRole = Qt::UserRole,
        // The row's block id (stable across edits), for selection sync with the graph.
        BlockIdRole,
        // SRAM peak over the working memory's capacity (0..; above 1 does not fit), for the bar.
        SramFractionRole,
        // The largest mp the target allows, for the mp editor.
        MaxMpRole,
        // True when the schedule check reported an error for the block.
        HasErrorRole,
        // The block's signed prediction error (fraction) when measured, else invalid.
        PredictionErrorRole,
    };

    // A block's time by kind of event: its events' durations summed over its cores (seconds).
    struct KindSplit {
        double compute = 0;
        double transfer = 0;
        double wait = 0;
    };
    // One block's figures from a run on this computer (trace::BlockComparison), and the split
    // of its time predicted and measured (trace::accuracyReport's per-block sums), where known.
    struct BlockMeasurement {
        double measuredSeconds = 0;
        double error = 0; // (predicted - measured) / measured
        std::optional<KindSplit> predictedSplit;
        std::optional<KindSplit> measuredSplit;
    };
    // |error| from which the Error column is coloured amber, and red.
    static constexpr double kNotableError = 0.10;
    static constexpr double kLargeError = 0.25;

    explicit ScheduleTableModel(QObject* parent = nullptr);

    // Shows `snapshot` (an empty one clears the table). Resets the model; the predicted times
    // go with it (they belong to one schedule).
    void setSnapshot(ScheduleSnapshot snapshot);
    // The emulator's time per block (seconds, by block id) for the schedule shown; blocks not
    // in the map show none. Changes only the Predicted column.
    void setPredictions(const std::unordered_map<int, double>& secondsByBlock);
    void clearPredictions() { setPredictions({}); }
    // A run on this computer of the schedule shown: measured time and prediction error per
    // block id; blocks not in the map show none. Changes only the Measured and Error columns;
    // like the predictions, a new snapshot clears them.
    void setMeasurements(const std::unordered_map<int, BlockMeasurement>& byBlock);
    void clearMeasurements() { setMeasurements({}); }
    const ScheduleSnapshot& snapshot() const { return m_snapshot; }

    // The row of block `id`, or -1.
    int rowOfBlock(int id) const;
    // The block id of `row`, or -1.
    int blockAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    // Forwards an edit of mp, tile or buffering as a request signal and returns false: the
    // model changes only with the next snapshot.
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    static bool isNumeric(int column);

  signals:
    void mpEditRequested(int block, int mp);
    void bufferingEditRequested(int block, int buffering);
    void tileEditRequested(int block, const QString& tile);

  private:
    struct Row {
        int id = 0;
        int opCount = 0;
        QString firstOp;
        QString lastOp;
        int mp = 1;
        QString tileSpec;     // "auto" or the explicit extents
        QString tileResolved; // the grid's tile, '*' when chosen automatically
        int buffering = 1;
        bool analysed = false;
        qint64 tiles = 0;
        quint64 sramPeak = 0;
        quint64 sramCapacity = 0;
        quint64 dramBytes = 0;
        double flops = 0;
        double recompute = 0; // fraction of the block's own FLOPs
        std::optional<double> predictedSeconds;
        std::optional<BlockMeasurement> measurement;
        QStringList errors;
        QStringList warnings;
        QStringList problemDetails; // errors and warnings with the op they name, for the tooltip
    };

    static std::vector<Row> buildRows(const ScheduleSnapshot& snapshot);
    QVariant displayData(const Row& row, int column) const;
    QVariant sortData(const Row& row, int column) const;
    QVariant toolTip(const Row& row, int column) const;

    ScheduleSnapshot m_snapshot;
    std::vector<Row> m_rows;
};

} // namespace strata::views::schedule
