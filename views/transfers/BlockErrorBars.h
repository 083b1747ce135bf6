#pragma once
// Per-block prediction error, sorted: one bar per block (the worst first, up to a limit), its
// height the relative error of the block's span in percent, filled with the block's graph colour,
// so the block that is predicted worst is found by its colour in the graph. A click on a bar
// reports the block.

#include "analysis/TransferStats.h"

#include <qcustomplot.h>

namespace strata::views::transfers {

class BlockErrorBars : public QCustomPlot {
    Q_OBJECT

  public:
    static constexpr std::size_t kMaxBlocks = 40;

    explicit BlockErrorBars(QWidget* parent = nullptr);

    // `errors` sorted as analysis::blockErrors() sorts them.
    void setErrors(const std::vector<analysis::BlockError>& errors);
    void showMessage(const QString& text);

    std::size_t barCount() const { return m_blocks.size(); }
    int blockAt(std::size_t bar) const { return bar < m_blocks.size() ? m_blocks[bar] : -1; }
    // Reports the block of the bar at `key` (its position on the x axis), as a click on it does.
    void clickBar(int bar);

  signals:
    void blockClicked(int block);

  private:
    std::vector<int> m_blocks; // bar i's block
    std::vector<QCPBars*> m_bars;
    QCPItemText* m_message = nullptr;
};

} // namespace strata::views::transfers
