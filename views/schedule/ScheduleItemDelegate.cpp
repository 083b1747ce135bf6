#include "views/schedule/ScheduleItemDelegate.h"

#include "views/schedule/ScheduleTableModel.h"

#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QPainter>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <algorithm>

namespace strata::views::schedule {

namespace {

using M = ScheduleTableModel;

QColor usageColor(double fraction) {
    if (fraction > 1.0)
        return QColor(0xE5, 0x73, 0x73); // does not fit
    if (fraction > 0.9)
        return QColor(0xF2, 0xB8, 0x4B); // nearly full
    return QColor(0x7F, 0xB8, 0xF0);
}

} // namespace

void ScheduleItemDelegate::initStyleOption(QStyleOptionViewItem* option,
                                           const QModelIndex& index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    if (index.column() == M::ErrorColumn)
        option->textElideMode = Qt::ElideRight;
}

void ScheduleItemDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                 const QModelIndex& index) const {
    const QVariant fraction = index.data(M::SramFractionRole);
    if (index.column() != M::SramColumn || !fraction.isValid()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    // Background and selection first, then the bar, then the text on top.
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    const QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);

    const double f = fraction.toDouble();
    const QRectF track = QRectF(option.rect).adjusted(4, option.rect.height() - 6, -4, -2);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(QColor(0, 0, 0, 22));
    painter->drawRoundedRect(track, 2, 2);
    QRectF bar = track;
    bar.setWidth(track.width() * std::clamp(f, 0.0, 1.0));
    painter->setBrush(usageColor(f));
    painter->drawRoundedRect(bar, 2, 2);
    painter->restore();

    painter->save();
    const bool selected = option.state & QStyle::State_Selected;
    painter->setPen(option.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
    painter->setFont(option.font);
    const QRect textRect = option.rect.adjusted(4, 0, -6, -4);
    painter->drawText(textRect, Qt::AlignRight | Qt::AlignVCenter,
                      option.fontMetrics.elidedText(text, Qt::ElideLeft, textRect.width()));
    painter->restore();
}

QWidget* ScheduleItemDelegate::createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                                            const QModelIndex& index) const {
    switch (index.column()) {
    case M::MpColumn: {
        auto* spin = new QSpinBox(parent);
        spin->setObjectName(QStringLiteral("mpEditor"));
        spin->setRange(1, std::max(1, index.data(M::MaxMpRole).toInt()));
        spin->setAlignment(Qt::AlignRight);
        spin->setFrame(false);
        return spin;
    }
    case M::BufferingColumn: {
        auto* combo = new QComboBox(parent);
        combo->setObjectName(QStringLiteral("bufferingEditor"));
        combo->addItem(tr("single"), 1);
        combo->addItem(tr("double"), 2);
        combo->setFrame(false);
        return combo;
    }
    case M::TileColumn: {
        auto* edit = new QLineEdit(parent);
        edit->setObjectName(QStringLiteral("tileEditor"));
        edit->setPlaceholderText(QStringLiteral("auto or 1x16x8x8"));
        edit->setFrame(false);
        static const QRegularExpression kTile(
            QStringLiteral("^\\s*(auto|AUTO|Auto|\\d+(\\s*[x×,]\\s*\\d+)*)?\\s*$"));
        edit->setValidator(new QRegularExpressionValidator(kTile, edit));
        return edit;
    }
    default:
        return QStyledItemDelegate::createEditor(parent, option, index);
    }
}

void ScheduleItemDelegate::setEditorData(QWidget* editor, const QModelIndex& index) const {
    const QVariant value = index.data(Qt::EditRole);
    if (auto* spin = qobject_cast<QSpinBox*>(editor)) {
        spin->setValue(value.toInt());
    } else if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        combo->setCurrentIndex(std::max(0, combo->findData(value.toInt())));
    } else if (auto* edit = qobject_cast<QLineEdit*>(editor);
               edit && index.column() == M::TileColumn) {
        edit->setText(value.toString());
        edit->selectAll();
    } else {
        QStyledItemDelegate::setEditorData(editor, index);
    }
}

void ScheduleItemDelegate::setModelData(QWidget* editor, QAbstractItemModel* model,
                                        const QModelIndex& index) const {
    if (auto* spin = qobject_cast<QSpinBox*>(editor)) {
        spin->interpretText();
        model->setData(index, spin->value());
    } else if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        model->setData(index, combo->currentData());
    } else if (auto* edit = qobject_cast<QLineEdit*>(editor);
               edit && index.column() == M::TileColumn) {
        model->setData(index, edit->text().trimmed());
    } else {
        QStyledItemDelegate::setModelData(editor, model, index);
    }
}

} // namespace strata::views::schedule
