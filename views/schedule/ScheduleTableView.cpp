#include "views/schedule/ScheduleTableView.h"

#include "views/schedule/ScheduleItemDelegate.h"
#include "views/schedule/ScheduleTableModel.h"

#include <QHeaderView>
#include <QItemSelection>
#include <QPainter>
#include <QResizeEvent>
#include <algorithm>

namespace strata::views::schedule {

namespace {

using M = ScheduleTableModel;

struct ColumnLimits {
    int column;
    int minEm;
    int maxEm;
};

// Widths in ems, so the table looks the same at any font size.
constexpr ColumnLimits kLimits[] = {
    {M::BlockColumn, 4, 6},
    {M::OpsColumn, 3, 4},
    {M::RangeColumn, 12, 24},
    {M::MpColumn, 3, 4},
    {M::TileColumn, 6, 10},
    {M::BufferingColumn, 5, 6},
    {M::TilesColumn, 4, 6},
    {M::SramColumn, 9, 12},
    {M::DramColumn, 5, 7},
    {M::FlopsColumn, 6, 8},
    {M::RecomputeColumn, 7, 8},
    {M::PredictedColumn, 8, 9},
    {M::MeasuredColumn, 8, 9},
    {M::PredictionErrorColumn, 6, 7},
    // "612 us / 725 us": room for both before a run fills them.
    {M::ComputeSplitColumn, 12, 14},
    {M::TransferSplitColumn, 12, 14},
    {M::WaitSplitColumn, 12, 14},
};
constexpr int kErrorMinEm = 6;

} // namespace

ScheduleTableView::ScheduleTableView(QWidget* parent)
    : QTableView(parent),
      m_placeholder(tr("No schedule yet: open a model, and its fusion blocks are listed here with "
                       "their tiles, SRAM, DRAM and times.")) {
    setItemDelegate(new ScheduleItemDelegate(this));
    setSortingEnabled(true);
    setAlternatingRowColors(true);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    setWordWrap(false);
    setTextElideMode(Qt::ElideMiddle);
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
    connect(header, &QHeaderView::sectionResized, this, [this](int logicalIndex, int, int) {
        if (logicalIndex != M::ErrorColumn)
            fitErrorColumn();
    });
}

void ScheduleTableView::fitColumns() {
    QHeaderView* header = horizontalHeader();
    const int em = fontMetrics().horizontalAdvance(QLatin1Char('M'));
    header->setMinimumSectionSize(2 * em);
    const int padding = em;
    auto contentWidth = [&](int column) {
        return std::max(header->sectionSizeHint(column), sizeHintForColumn(column)) + padding;
    };
    m_fitting = true;
    for (const ColumnLimits& l : kLimits)
        header->resizeSection(l.column,
                              std::clamp(contentWidth(l.column), l.minEm * em, l.maxEm * em));
    m_fitting = false;
    // The check's messages take what is left and elide; their tooltips have them whole.
    m_errorMinWidth = kErrorMinEm * em;
    fitErrorColumn();
}

void ScheduleTableView::resizeEvent(QResizeEvent* event) {
    QTableView::resizeEvent(event);
    fitErrorColumn();
}

void ScheduleTableView::fitErrorColumn() {
    if (m_fitting || !model() || model()->columnCount() <= M::ErrorColumn)
        return;
    m_fitting = true;
    QHeaderView* header = horizontalHeader();
    int others = 0;
    for (int column = 0; column < header->count(); ++column)
        if (column != M::ErrorColumn && !header->isSectionHidden(column))
            others += header->sectionSize(column);
    header->resizeSection(M::ErrorColumn, std::max(viewport()->width() - others, m_errorMinWidth));
    m_fitting = false;
}

std::vector<int> ScheduleTableView::selectedBlocks() const {
    std::vector<int> ids;
    if (!selectionModel())
        return ids;
    for (const QModelIndex& index : selectionModel()->selectedRows())
        ids.push_back(index.data(M::BlockIdRole).toInt());
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

int ScheduleTableView::currentBlock() const {
    const QModelIndex current = currentIndex();
    return current.isValid() ? current.data(M::BlockIdRole).toInt() : -1;
}

QModelIndex ScheduleTableView::indexOfBlock(int id) const {
    if (!model())
        return {};
    for (int row = 0; row < model()->rowCount(); ++row) {
        const QModelIndex index = model()->index(row, 0);
        if (index.data(M::BlockIdRole).toInt() == id)
            return index;
    }
    return {};
}

void ScheduleTableView::selectBlock(int id) {
    selectBlocks({id});
}

void ScheduleTableView::selectBlocks(const std::vector<int>& ids) {
    if (!selectionModel())
        return;
    QItemSelection selection;
    QModelIndex first;
    for (int id : ids) {
        const QModelIndex index = indexOfBlock(id);
        if (!index.isValid())
            continue;
        if (!first.isValid())
            first = index;
        selection.select(index, index.siblingAtColumn(model()->columnCount() - 1));
    }
    if (!first.isValid()) {
        selectionModel()->clearSelection();
        return;
    }
    selectionModel()->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
    selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    scrollTo(first);
}

void ScheduleTableView::paintEvent(QPaintEvent* event) {
    QTableView::paintEvent(event);
    if (model() && model()->rowCount() > 0)
        return;
    QPainter painter(viewport());
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(viewport()->rect().adjusted(24, 0, -24, 0), Qt::AlignCenter | Qt::TextWordWrap,
                     m_placeholder);
}

} // namespace strata::views::schedule
