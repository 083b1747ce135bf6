#pragma once
// Seed 004's figure: achieved throughput against transfer size, log-x. Either a run's own
// transfers binned by size (per path: predicted dashed, measured solid, in the path's colour,
// and the sequential ideal dotted) or the microbenchmark (the alternating program's total,
// predicted and measured, each kind alone, and the sequential ideal).

#include "analysis/TransferStats.h"
#include "emulator/Microbench.h"

#include <qcustomplot.h>

namespace strata::views::transfers {

class ThroughputPlot : public QCustomPlot {
    Q_OBJECT

  public:
    explicit ThroughputPlot(QWidget* parent = nullptr);

    // A run's own transfers: `predicted` per path, `measured` per path (empty: no measured run).
    // The ideal is the measured paths' harmonic mean when there are any, else the predicted ones'.
    void setRunThroughput(const std::vector<analysis::PathThroughput>& predicted,
                          const std::vector<analysis::PathThroughput>& measured);
    // The microbenchmark: `measured` null when it was not run on this computer.
    void setMicrobench(const emulator::MicrobenchResult& predicted, const emulator::MicrobenchResult* measured);
    // Nothing to plot: clears the graphs and says why.
    void showMessage(const QString& text);

  private:
    QCPGraph* addSeries(const QString& name, const QColor& color, Qt::PenStyle style, QCPScatterStyle::ScatterShape shape,
                        double width = 1.8);
    void finish();

    QCPTextElement* m_heading = nullptr;
    QCPItemText* m_message = nullptr;
};

} // namespace strata::views::transfers
