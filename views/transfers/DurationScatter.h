#pragma once
// Predicted against measured duration of every matched transfer, log-log, one colour per path,
// with the diagonal y = x (points above it: predicted too slow). A click on a point or a box
// drawn with the left button selects events: eventsSelected() gives their instruction ids. Hovering
// a point tells its instruction, path, size, both durations, the error and the block.

#include "analysis/TransferStats.h"

#include <QVector>
#include <qcustomplot.h>
#include <string>
#include <vector>

namespace strata::views::transfers {

class DurationScatter : public QCustomPlot {
    Q_OBJECT

  public:
    explicit DurationScatter(QWidget* parent = nullptr);

    // The transfers of `events` with both durations above 0; `pathNames` names the path indices.
    void setEvents(const std::vector<analysis::MatchedEvent>& events, const std::vector<std::string>& pathNames);
    void showMessage(const QString& text);

    // The graph of path `index`'s points (null when that path has none), and the id of its `i`-th
    // point: for tests and for the click handling.
    QCPGraph* pathGraph(std::uint16_t path) const;
    quint32 idAt(const QCPGraph* graph, int dataIndex) const;
    std::size_t pointCount() const;
    // Selects the points inside the plot-coordinate box and reports them, as a box drawn by the
    // user does.
    void selectBox(double x0, double y0, double x1, double y1);
    // The hover text of the point nearest `pos` within a few pixels; empty when none.
    QString toolTipAt(const QPointF& pos) const;

  signals:
    void eventsSelected(const QVector<quint32>& ids);

  protected:
    void mouseMoveEvent(QMouseEvent* event) override;

  private:
    void onSelectionChanged();

    struct PathSeries {
        std::uint16_t path;
        QCPGraph* graph;
        std::vector<quint32> ids; // in the graph's data order (by measured duration)
        std::vector<analysis::MatchedEvent> events; // the same order, for the hover text
    };
    std::vector<PathSeries> m_series;
    QCPItemStraightLine* m_diagonal = nullptr;
    QCPItemText* m_message = nullptr;
};

} // namespace strata::views::transfers
