#include "views/inspector/InspectorView.h"

#include <QHeaderView>
#include <algorithm>

namespace strata::views::inspector {

InspectorView::InspectorView(QWidget* parent) : QTreeWidget(parent) {
    setColumnCount(2);
    setHeaderLabels({tr("Property"), tr("Value")});
    setRootIsDecorated(false);
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setTextElideMode(Qt::ElideMiddle); // shapes and names keep both ends
    header()->setStretchLastSection(true);
    header()->setSectionResizeMode(NameColumn, QHeaderView::Interactive);
    setColumnWidth(NameColumn, kMinNameWidth);
}

void InspectorView::setSections(const std::vector<Section>& sections) {
    setUpdatesEnabled(false);
    clear();
    for (const Section& section : sections) {
        auto* head = new QTreeWidgetItem(this, {section.title});
        QFont bold = head->font(NameColumn);
        bold.setBold(true);
        head->setFont(NameColumn, bold);
        head->setFirstColumnSpanned(true);
        head->setFlags(Qt::ItemIsEnabled);
        for (const Property& property : section.properties) {
            auto* item = new QTreeWidgetItem(head, {property.name, property.value});
            item->setToolTip(NameColumn, property.name);
            item->setToolTip(ValueColumn,
                             property.toolTip.isEmpty() ? property.value : property.toolTip);
        }
        head->setExpanded(true);
    }
    // Names as wide as the longest (tensor names are long), but never more than 40 % of the
    // view: the values are what is read.
    resizeColumnToContents(NameColumn);
    const int most = std::max(kMinNameWidth, viewport()->width() * 2 / 5);
    setColumnWidth(NameColumn, std::clamp(columnWidth(NameColumn), kMinNameWidth, most));
    setUpdatesEnabled(true);
}

QString InspectorView::value(const QString& section, const QString& name) const {
    for (int i = 0; i < topLevelItemCount(); ++i) {
        const QTreeWidgetItem* head = topLevelItem(i);
        if (head->text(NameColumn) != section)
            continue;
        for (int j = 0; j < head->childCount(); ++j)
            if (head->child(j)->text(NameColumn) == name)
                return head->child(j)->text(ValueColumn);
    }
    return {};
}

} // namespace strata::views::inspector
