#include "views/timeline/CompactHeader.h"

#include <QStyleOptionHeader>

namespace strata::views::timeline {

CompactHeader::CompactHeader(QWidget* parent) : QHeaderView(Qt::Horizontal, parent) {
    setSectionsClickable(true); // as a table's own header: a click sorts
    setHighlightSections(true);
    connect(this, &QHeaderView::sortIndicatorChanged, this,
            [this] { resizeSections(QHeaderView::ResizeToContents); });
}

QSize CompactHeader::sectionSizeFromContents(int logicalIndex) const {
    if (!model() || !isSortIndicatorShown() || logicalIndex == sortIndicatorSection())
        return QHeaderView::sectionSizeFromContents(logicalIndex);
    // QHeaderView's own measure (its label in bold, as a highlighted section is drawn) without
    // the arrow.
    ensurePolished();
    QStyleOptionHeader option;
    initStyleOption(&option);
    option.section = logicalIndex;
    QFont bold = font();
    bold.setBold(true);
    option.fontMetrics = QFontMetrics(bold);
    option.text = model()->headerData(logicalIndex, orientation(), Qt::DisplayRole).toString();
    option.sortIndicator = QStyleOptionHeader::None;
    return style()->sizeFromContents(QStyle::CT_HeaderSection, &option, QSize(), this);
}

} // namespace strata::views::timeline
