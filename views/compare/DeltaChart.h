#pragma once
// The Compare tab's chart: per-block time deltas of run B against run A (trace/RunDelta.h) as
// horizontal bars sorted by delta, slowdowns on top, in the graph's block colours and labelled
// with block names; a block in one run only is hatched and says so. At most kMaxBars bars (the
// largest deltas); the axis title says how many were left out.

#include "trace/RunDelta.h"

#include <qcustomplot.h>
#include <vector>

namespace strata::views::compare {

class DeltaChart : public QCustomPlot {
    Q_OBJECT

  public:
    static constexpr std::size_t kMaxBars = 40;

    explicit DeltaChart(QWidget* parent = nullptr);

    // Shows `delta`'s blocks (none: the empty message).
    void setDelta(const trace::RunDelta& delta);
    void showMessage(const QString& text);

    // Bars drawn, top to bottom, and their block ids.
    int barCount() const { return static_cast<int>(m_bars.size()); }
    const std::vector<int>& blocks() const { return m_blocks; }
    // The label of bar `i` ("B3", "B7 · only in B"), drawn or not.
    QString barLabel(int i) const;
    // Bars whose label the axis draws: every one, or every k-th when rows are shorter than text.
    int labelStep() const { return m_labelStep; }

  signals:
    void blockClicked(int block);

  private:
    void labelBarsThatFit();

    std::vector<QCPBars*> m_bars;
    std::vector<QString> m_names;
    int m_labelStep = 1;
    std::vector<int> m_blocks;
    QSharedPointer<QCPAxisTickerText> m_labels;
    QCPItemText* m_message = nullptr;
    QCPItemStraightLine* m_zero = nullptr;
};

} // namespace strata::views::compare
