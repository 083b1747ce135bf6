#pragma once
// The table view for OpTableModel (directly or through a sort/filter proxy): compact rows,
// alternating colours, columns fitted to their contents, and a name column that takes the
// width left over without ever shrinking below what a name needs.

#include <QTableView>

namespace strata::views {

class OpTableView : public QTableView {
    Q_OBJECT

  public:
    explicit OpTableView(QWidget* parent = nullptr);

    // Fits every column to its header and contents, within per-column limits. Call after the
    // model was reset.
    void fitColumns();

  protected:
    void resizeEvent(QResizeEvent* event) override;

  private:
    void fitNameColumn();

    int m_nameMinWidth = 0;
    bool m_fittingName = false;
};

} // namespace strata::views
