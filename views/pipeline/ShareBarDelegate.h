#pragma once
// Paints a cell's share (a 0..1 number under a role) as a bar behind its text: the pass list's
// "where did the compile time go" column.

#include <QStyledItemDelegate>

namespace strata::views::pipeline {

class ShareBarDelegate : public QStyledItemDelegate {
    Q_OBJECT

  public:
    ShareBarDelegate(int shareRole, QObject* parent = nullptr);
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;

  private:
    int m_role;
};

} // namespace strata::views::pipeline
