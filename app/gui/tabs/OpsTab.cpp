#include "tabs/OpsTab.h"

#include "document/Selection.h"
#include "views/ModelSummaryWidget.h"
#include "views/OpTableModel.h"
#include "views/OpTableView.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QVBoxLayout>

namespace strata::gui {

OpsTab::OpsTab(QWidget* parent) : QSplitter(Qt::Horizontal, parent) {
    setObjectName(QStringLiteral("mainSplitter")); // the name its saved sizes are kept under
    m_model = new views::OpTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(views::OpTableModel::SortRole);
    m_proxy->setFilterRole(views::OpTableModel::FilterRole);
    m_proxy->setFilterKeyColumn(views::OpTableModel::NameColumn);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setSortCaseSensitivity(Qt::CaseInsensitive);

    m_summary = new views::ModelSummaryWidget;
    m_summary->setObjectName(QStringLiteral("modelSummary"));
    auto* summaryScroll = new QScrollArea;
    summaryScroll->setWidget(m_summary);
    summaryScroll->setWidgetResizable(true);
    summaryScroll->setFrameShape(QFrame::NoFrame);
    summaryScroll->setMinimumWidth(280);

    addWidget(summaryScroll);
    addWidget(createTablePane());
    setStretchFactor(0, 0);
    setStretchFactor(1, 1);
    setSizes({360, 1240});
    setChildrenCollapsible(false);
}

QWidget* OpsTab::createTablePane() {
    auto* pane = new QWidget;
    auto* layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 6, 6, 0);
    layout->setSpacing(6);

    auto* filterRow = new QHBoxLayout;
    m_filter = new QLineEdit;
    m_filter->setObjectName(QStringLiteral("opFilter"));
    m_filter->setPlaceholderText(tr("Filter ops by name or type…"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text.trimmed());
        updateFilterCount();
    });
    m_filterCount = new QLabel;
    m_filterCount->setObjectName(QStringLiteral("opFilterCount"));
    m_filterCount->setMinimumWidth(110);
    m_filterCount->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_filterCount);
    layout->addLayout(filterRow);

    m_table = new views::OpTableView;
    m_table->setObjectName(QStringLiteral("opTable"));
    m_table->setModel(m_proxy);
    m_table->sortByColumn(views::OpTableModel::IndexColumn, Qt::AscendingOrder);
    m_table->fitColumns();
    layout->addWidget(m_table, 1);

    connect(m_proxy, &QAbstractItemModel::modelReset, this, &OpsTab::updateFilterCount);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &OpsTab::onCurrentChanged);
    updateFilterCount();
    return pane;
}

void OpsTab::setGraph(const std::shared_ptr<const ir::Graph>& graph, const QString& path) {
    m_model->setGraph(graph);
    m_summary->setGraph(graph, path);
    m_table->fitColumns();
}

void OpsTab::setSelection(Selection* selection) {
    connect(this, &OpsTab::opActivated, selection,
            [selection](ir::OpId op) { selection->selectOps({op}, Selection::Origin::Ops); });
    connect(selection, &Selection::changed, this, [this, selection](Selection::Origin origin) {
        if (const auto op = selection->singleOp(); op && origin != Selection::Origin::Ops)
            selectOp(*op);
    });
}

void OpsTab::selectOp(ir::OpId op) {
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(static_cast<int>(op.index), 0));
    if (!index.isValid())
        return; // filtered out of the table
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                          QItemSelectionModel::Rows);
    m_table->scrollTo(index);
}

void OpsTab::onCurrentChanged() {
    const QModelIndex index = m_proxy->mapToSource(m_table->currentIndex());
    if (!index.isValid())
        return;
    emit opActivated(ir::OpId(static_cast<std::uint32_t>(index.row())));
}

void OpsTab::updateFilterCount() {
    const int total = m_model->rowCount();
    const int shown = m_proxy->rowCount();
    if (shown == total)
        m_filterCount->setText(total == 1 ? tr("1 op") : tr("%1 ops").arg(total));
    else
        m_filterCount->setText(tr("%1 of %2 ops").arg(shown).arg(total));
}

} // namespace strata::gui
