#pragma once
// One path of a host calibration, before and after: the measured transfers (throughput against
// size) with the throughput the uncalibrated target predicts and the fitted one, log-x, and
// each model's RMS relative residual over the samples in the heading.

#include "analysis/TransferResiduals.h"

#include <QString>
#include <qcustomplot.h>
#include <vector>

namespace strata::views::transfers {

struct PathResiduals {
    QString path;
    std::vector<analysis::SizedDuration> samples; // measured, alone
    analysis::LinearTransferModel before;          // the target as it was
    analysis::LinearTransferModel after;           // the fit
    double clockHz = 0;                            // cycles -> seconds
};

class CalibrationResidualsPlot : public QCustomPlot {
    Q_OBJECT

  public:
    explicit CalibrationResidualsPlot(QWidget* parent = nullptr);

    void setPath(const PathResiduals& path);

    QCPGraph* measuredGraph() const { return m_measured; }
    QCPGraph* beforeGraph() const { return m_before; }
    QCPGraph* afterGraph() const { return m_after; }
    double rmsBefore() const { return m_rmsBefore; }
    double rmsAfter() const { return m_rmsAfter; }

  private:
    QCPTextElement* m_heading = nullptr;
    QCPGraph* m_measured = nullptr;
    QCPGraph* m_before = nullptr;
    QCPGraph* m_after = nullptr;
    double m_rmsBefore = 0;
    double m_rmsAfter = 0;
};

} // namespace strata::views::transfers
