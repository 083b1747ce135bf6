#pragma once
// A schedule search's Pareto front: predicted time against DRAM bytes, one clickable point per
// non-dominated schedule (by increasing time). The chosen point is drawn larger and in the
// measured colour; pointClicked() says which one the user picked.

#include <qcustomplot.h>
#include <utility>
#include <vector>

namespace strata::views::search {

class ParetoPlot : public QCustomPlot {
    Q_OBJECT

  public:
    explicit ParetoPlot(QWidget* parent = nullptr);

    // (predicted ns, DRAM bytes) per point, in the front's order.
    void setFront(std::vector<std::pair<double, double>> points);
    // Highlights point `index` (-1: none).
    void setChosen(int index);
    int chosen() const { return m_chosen; }
    int pointCount() const { return static_cast<int>(m_points.size()); }
    // The point nearest to a pixel position, within a few pixels; -1 if none.
    int pointAt(const QPointF& pixel) const;
    // Where point `index` is drawn, in widget pixels (tests click there).
    QPointF pixelOf(int index) const;

  signals:
    void pointClicked(int index);

  protected:
    void mouseReleaseEvent(QMouseEvent* event) override;

  private:
    QCPGraph* m_front = nullptr;
    QCPGraph* m_chosenGraph = nullptr;
    std::vector<std::pair<double, double>> m_points;
    int m_chosen = -1;
};

} // namespace strata::views::search
