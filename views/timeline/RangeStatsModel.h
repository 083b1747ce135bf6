#pragma once
// The side panel's table of a selected time range: one row per kind, per path and per block
// present in the range; per trace the time events spend in the range, their count and bytes.
// Columns: group, name, every trace's time side by side, then the counts and the bytes; those
// once when every trace has the same (an emulated and a measured run of one program, whole), so
// the narrow panel fits them. Reset with one result at a time; sorting by the SortRole.

#include "timeline/RangeStats.h"
#include "timeline/TimelineData.h"

#include <QAbstractTableModel>
#include <memory>
#include <vector>

namespace strata::views::timeline {

class RangeStatsModel : public QAbstractTableModel {
    Q_OBJECT

  public:
    enum Role { SortRole = Qt::UserRole, BlockRole };
    enum class Group { Kind, Path, Block };

    explicit RangeStatsModel(QObject* parent = nullptr);

    // `stats` holds one result per trace of `data`, for the same range; empty clears the table.
    void setStats(std::shared_ptr<const strata::timeline::TimelineData> data,
                  std::vector<strata::timeline::RangeStats> stats);
    const std::vector<strata::timeline::RangeStats>& stats() const { return m_stats; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static constexpr int kFiguresPerTrace = 3; // time, events, bytes
    // Whether the events and bytes columns are shown once, for every trace alike.
    bool countsShared() const { return m_countsShared; }

  private:
    struct Line {
        Group group;
        std::int64_t key;       // kind, path index or block id
        QString label;
    };
    const strata::timeline::RangeFigure* figure(const Line& line, std::size_t trace) const;
    struct Column {
        std::size_t trace;
        int which; // 0 time, 1 events, 2 bytes
    };
    Column columnAt(int section) const; // section >= 2

    std::shared_ptr<const strata::timeline::TimelineData> m_data;
    std::vector<strata::timeline::RangeStats> m_stats;
    std::vector<Line> m_lines;
    bool m_countsShared = false;
};

} // namespace strata::views::timeline
