#include "views/OpTableView.h"

#include "views/OpTableModel.h"

#include <QHeaderView>
#include <QResizeEvent>
#include <algorithm>

namespace strata::views {

namespace {

using M = OpTableModel;

struct ColumnLimits {
    int column;
    int minEm;
    int maxEm;
};

// Widths in ems, so the table looks the same at any font size.
constexpr ColumnLimits kLimits[] = {
    {M::IndexColumn, 3, 6},         {M::TypeColumn, 6, 18},       {M::ClassColumn, 7, 14},
    {M::OutputShapesColumn, 7, 24}, {M::FlopsColumn, 6, 12},      {M::BytesReadColumn, 6, 12},
    {M::BytesWrittenColumn, 6, 12}, {M::ParametersColumn, 5, 12},
};
constexpr int kNameMinEm = 12;
constexpr int kNameMaxEm = 30;

} // namespace

OpTableView::OpTableView(QWidget* parent) : QTableView(parent) {
    setSortingEnabled(true);
    setAlternatingRowColors(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setWordWrap(false);
    setTextElideMode(Qt::ElideMiddle); // op names differ at the end: "layer2/conv1/..."
    setShowGrid(false);
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    verticalHeader()->hide();
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);

    QHeaderView* header = horizontalHeader();
    header->setHighlightSections(false);
    header->setSectionsMovable(true);
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    // A column the user widens or narrows gives or takes its room from the name column.
    connect(header, &QHeaderView::sectionResized, this, [this](int logicalIndex, int, int) {
        if (logicalIndex != M::NameColumn)
            fitNameColumn();
    });
}

void OpTableView::fitColumns() {
    QHeaderView* header = horizontalHeader();
    const int em = fontMetrics().horizontalAdvance(QLatin1Char('M'));
    header->setMinimumSectionSize(3 * em);
    const int padding = em; // room between right-aligned numbers and the next column
    auto contentWidth = [&](int column) {
        return std::max(header->sectionSizeHint(column), sizeHintForColumn(column)) + padding;
    };
    m_fittingName = true; // one name fit at the end, not one per column
    for (const ColumnLimits& l : kLimits)
        header->resizeSection(l.column,
                              std::clamp(contentWidth(l.column), l.minEm * em, l.maxEm * em));
    m_fittingName = false;
    m_nameMinWidth = std::clamp(contentWidth(M::NameColumn), kNameMinEm * em, kNameMaxEm * em);
    fitNameColumn();
}

void OpTableView::resizeEvent(QResizeEvent* event) {
    QTableView::resizeEvent(event);
    fitNameColumn();
}

void OpTableView::fitNameColumn() {
    if (m_fittingName || !model() || model()->columnCount() <= M::NameColumn)
        return;
    m_fittingName = true;
    QHeaderView* header = horizontalHeader();
    int others = 0;
    for (int column = 0; column < header->count(); ++column)
        if (column != M::NameColumn && !header->isSectionHidden(column))
            others += header->sectionSize(column);
    const int available = viewport()->width() - others;
    header->resizeSection(M::NameColumn, std::max(available, m_nameMinWidth));
    m_fittingName = false;
}

} // namespace strata::views
