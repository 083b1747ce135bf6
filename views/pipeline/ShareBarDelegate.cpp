#include "views/pipeline/ShareBarDelegate.h"

#include <QApplication>
#include <QPainter>
#include <algorithm>

namespace strata::views::pipeline {

ShareBarDelegate::ShareBarDelegate(int shareRole, QObject* parent)
    : QStyledItemDelegate(parent), m_role(shareRole) {}

void ShareBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                             const QModelIndex& index) const {
    const QVariant share = index.data(m_role);
    if (!share.isValid()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    // Background and selection, then the bar, then the text over it.
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    const QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);

    const QRectF track = QRectF(option.rect).adjusted(4, 3, -4, -3);
    QRectF bar = track;
    bar.setWidth(track.width() * std::clamp(share.toDouble(), 0.0, 1.0));
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(QColor(0, 0, 0, 14));
    painter->drawRoundedRect(track, 2, 2);
    painter->setBrush(QColor(0x7F, 0xB8, 0xF0, 170));
    painter->drawRoundedRect(bar, 2, 2);
    painter->restore();

    const QRect textRect = option.rect.adjusted(8, 0, -8, 0);
    painter->save();
    painter->setPen(opt.palette.color(
        option.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
    painter->drawText(textRect, Qt::AlignRight | Qt::AlignVCenter, text);
    painter->restore();
}

} // namespace strata::views::pipeline
