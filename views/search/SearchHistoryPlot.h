#pragma once
// A schedule search as it runs: the best predicted time so far against the candidates evaluated
// (a step line, one point per progress report), with the best built-in start as a dashed line
// to beat.

#include <qcustomplot.h>

namespace strata::views::search {

class SearchHistoryPlot : public QCustomPlot {
    Q_OBJECT

  public:
    explicit SearchHistoryPlot(QWidget* parent = nullptr);

    // Starts over (a new search).
    void clear();
    // The best predicted time `bestNs` after `evaluated` candidates.
    void addPoint(double evaluated, double bestNs);
    // The best start's predicted time, drawn across the plot.
    void setBaseline(double bestNs);

    QCPGraph* bestGraph() const { return m_best; }

  private:
    void rescale();

    QCPGraph* m_best = nullptr;
    QCPItemStraightLine* m_baseline = nullptr;
    double m_baselineNs = 0;
};

} // namespace strata::views::search
