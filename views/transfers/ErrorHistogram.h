#pragma once
// How wrong the predictions are: histograms of the relative error (predicted - measured) /
// measured of matched transfers and, as a second series, of computes; the range covers the 2nd
// to 98th percentile and the values outside it are counted in the legend, not dropped.

#include "analysis/EventGroups.h"
#include "analysis/TransferStats.h"

#include <qcustomplot.h>

namespace strata::views::transfers {

class ErrorHistogram : public QCustomPlot {
    Q_OBJECT

  public:
    explicit ErrorHistogram(QWidget* parent = nullptr);

    void setErrors(const std::vector<double>& transferErrors, const std::vector<double>& computeErrors);
    void setComputesShown(bool shown);
    // One series per group instead (the Transfers tab's "by transfer kind" / "by op class"): the
    // kMaxGroups largest groups, the rest merged into "other groups". `what` names the events.
    void setGroups(const std::vector<analysis::ErrorGroup>& groups, const QString& what);
    static constexpr std::size_t kMaxGroups = 6;
    // The grouped series shown (none after setErrors).
    const std::vector<QCPBars*>& groupBars() const { return m_groups; }
    void showMessage(const QString& text);

    QCPBars* transferBars() const { return m_transfers; }
    QCPBars* computeBars() const { return m_computes; }

  private:
    void clearGroups();

    std::vector<QCPBars*> m_groups;
    QCPBarsGroup* m_groupSpacing = nullptr;
    QCPBars* m_transfers = nullptr;
    QCPBars* m_computes = nullptr;
    QCPItemStraightLine* m_zero = nullptr;
    QCPItemText* m_message = nullptr;
    double m_binWidth = 1; // percent
};

} // namespace strata::views::transfers
