#pragma once
// The table view for ScheduleTableModel (directly or through a sort proxy): compact rows, the
// block's colour beside its id (the graph's cluster colour), SRAM use as a bar, knobs edited
// in place (double-click or F2), columns fitted to their contents with the check's messages
// taking what is left. Empty, it says what fills it.

#include <QTableView>

namespace strata::views::schedule {

class ScheduleTableView : public QTableView {
    Q_OBJECT

  public:
    explicit ScheduleTableView(QWidget* parent = nullptr);

    // Fits every column to its header and contents, within per-column limits. Call after the
    // model was reset.
    void fitColumns();

    // Block ids of the selected rows, ascending.
    std::vector<int> selectedBlocks() const;
    // The block id of the current row, or -1.
    int currentBlock() const;
    // Makes the row of block `id` current and selected alone, and scrolls to it.
    void selectBlock(int id);
    // Selects the rows of `ids` (the first becomes current); an empty list clears.
    void selectBlocks(const std::vector<int>& ids);

    // What the empty table says in its middle.
    QString placeholderText() const { return m_placeholder; }

  protected:
    void resizeEvent(QResizeEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

  private:
    void fitErrorColumn();
    QModelIndex indexOfBlock(int id) const;

    QString m_placeholder;
    int m_errorMinWidth = 0;
    bool m_fitting = false;
};

} // namespace strata::views::schedule
