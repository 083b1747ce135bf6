#pragma once
// Paints and edits the schedule table's cells: the SRAM column as a usage bar behind its text
// (amber when nearly full, red when over), and editors for the knobs: a spin box for mp
// (1 .. the target's cores), a choice of single or double buffering, a checked line edit for
// the tile ("auto" or extents like 1x16x8x8).

#include <QStyledItemDelegate>

namespace strata::views::schedule {

class ScheduleItemDelegate : public QStyledItemDelegate {
    Q_OBJECT

  public:
    using QStyledItemDelegate::QStyledItemDelegate;

  protected:
    // Messages read from their start: the check column elides at the end, not the middle.
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;

  public:
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex& index) const override;
    void setEditorData(QWidget* editor, const QModelIndex& index) const override;
    void setModelData(QWidget* editor, QAbstractItemModel* model,
                      const QModelIndex& index) const override;
};

} // namespace strata::views::schedule
