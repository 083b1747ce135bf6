#include "views/compare/CompareView.h"

#include "views/compare/BlockSplitModel.h"
#include "views/compare/DeltaChart.h"
#include "views/timeline/TimeFormat.h"
#include "views/timeline/TimelineView.h"

#include <QComboBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace strata::views::compare {

namespace {

const QColor kSlower(0xC6, 0x28, 0x28);
const QColor kFaster(0x2E, 0x7D, 0x32);
const QColor kMuted(0x5f, 0x66, 0x70);

QString duration(std::int64_t ps) {
    return timeline::formatDuration(double(ps));
}

QString signedDuration(std::int64_t ps) {
    const QString text = duration(ps < 0 ? -ps : ps);
    return ps > 0 ? QStringLiteral("+") + text : ps < 0 ? QStringLiteral("\u2212") + text : text;
}

// A figure with its caption above it, as a card in the totals row.
QLabel* figureLabel(const QString& objectName) {
    auto* label = new QLabel;
    label->setObjectName(objectName);
    label->setTextFormat(Qt::RichText);
    label->setMinimumWidth(150);
    return label;
}

QString figure(const QString& caption, const QString& value, const QColor& color = QColor()) {
    const QString style = color.isValid() ? QStringLiteral(" style='color:%1'").arg(color.name()) : QString();
    return QStringLiteral("<span style='color:%1'>%2</span><br><span style='font-size:15pt; font-weight:600'%3>%4</span>")
        .arg(kMuted.name(), caption.toHtmlEscaped(), style, value.toHtmlEscaped());
}

} // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 0);
    layout->setSpacing(6);

    auto* pickers = new QHBoxLayout;
    pickers->setSpacing(6);
    m_a = new QComboBox;
    m_a->setObjectName(QStringLiteral("compareRunA"));
    m_b = new QComboBox;
    m_b->setObjectName(QStringLiteral("compareRunB"));
    for (QComboBox* combo : {m_a, m_b}) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(36);
        combo->setPlaceholderText(tr("No runs: pin one, run on host or import a trace"));
        connect(combo, &QComboBox::currentIndexChanged, this, &CompareView::emitSelection);
    }
    auto* swap = new QToolButton;
    swap->setObjectName(QStringLiteral("compareSwap"));
    swap->setText(QStringLiteral("\u21c4"));
    swap->setToolTip(tr("Swap A and B"));
    connect(swap, &QToolButton::clicked, this, [this] { select(runB(), runA()); });
    pickers->addWidget(new QLabel(tr("<b>A</b>")));
    pickers->addWidget(m_a, 1);
    pickers->addWidget(swap);
    pickers->addWidget(new QLabel(tr("<b>B</b>")));
    pickers->addWidget(m_b, 1);
    m_tools = new QToolBar;
    m_tools->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_tools->setStyleSheet(QStringLiteral("QToolBar { border: none; }"));
    pickers->addWidget(m_tools);
    layout->addLayout(pickers);

    auto* totals = new QFrame;
    totals->setObjectName(QStringLiteral("compareTotals"));
    totals->setFrameShape(QFrame::StyledPanel);
    auto* totalsRow = new QHBoxLayout(totals);
    totalsRow->setContentsMargins(12, 6, 12, 6);
    totalsRow->setSpacing(28);
    m_totalA = figureLabel(QStringLiteral("compareTotalA"));
    m_totalB = figureLabel(QStringLiteral("compareTotalB"));
    m_totalDelta = figureLabel(QStringLiteral("compareTotalDelta"));
    m_blocksNote = new QLabel;
    m_blocksNote->setObjectName(QStringLiteral("compareBlocksNote"));
    m_blocksNote->setWordWrap(true);
    QPalette muted = m_blocksNote->palette();
    muted.setColor(QPalette::WindowText, kMuted);
    m_blocksNote->setPalette(muted);
    totalsRow->addWidget(m_totalA);
    totalsRow->addWidget(m_totalB);
    totalsRow->addWidget(m_totalDelta);
    totalsRow->addWidget(m_blocksNote, 1);
    layout->addWidget(totals);

    // The chart beside the timelines: every block gets a readable bar over the tab's height.
    m_splitter = new QSplitter(Qt::Horizontal);
    m_splitter->setChildrenCollapsible(false);
    m_chart = new DeltaChart;
    m_chart->setMinimumWidth(280);
    m_timeline = new timeline::TimelineView;
    m_timeline->setObjectName(QStringLiteral("compareTimeline"));
    // Under the chart, the worst-predicted blocks: A's split against B's, a click selects one.
    m_blockModel = new BlockSplitModel(this);
    m_blockProxy = new QSortFilterProxyModel(this);
    m_blockProxy->setSourceModel(m_blockModel);
    m_blockProxy->setSortRole(BlockSplitModel::SortRole);
    m_blockTable = new QTableView;
    m_blockTable->setObjectName(QStringLiteral("compareBlockSplit"));
    m_blockTable->setModel(m_blockProxy);
    m_blockTable->setSortingEnabled(true);
    m_blockTable->sortByColumn(BlockSplitModel::ErrorColumn, Qt::DescendingOrder);
    m_blockTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_blockTable->setSelectionMode(QAbstractItemView::SingleSelection);
    m_blockTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_blockTable->verticalHeader()->hide();
    m_blockTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_blockTable->setToolTip(
        tr("Worst predicted blocks: A's compute, transfer and wait time against B's, and the "
           "error of A's block time; click a row to select the block"));
    connect(m_blockTable, &QTableView::clicked, this, [this](const QModelIndex& index) {
        if (index.isValid())
            emit blockActivated(index.data(BlockSplitModel::BlockRole).toInt());
    });
    auto* left = new QSplitter(Qt::Vertical);
    left->setChildrenCollapsible(false);
    left->addWidget(m_chart);
    left->addWidget(m_blockTable);
    left->setStretchFactor(0, 3);
    left->setStretchFactor(1, 2);
    m_splitter->addWidget(left);
    m_splitter->addWidget(m_timeline);
    m_splitter->setStretchFactor(0, 2);
    m_splitter->setStretchFactor(1, 5);
    m_splitter->setSizes({440, 1100});
    layout->addWidget(m_splitter, 1);
    showMessage(tr("Pin two runs (Pin Run after each schedule), run on host, or import traces, then pick A and B"));
}

void CompareView::addToolAction(QAction* action) {
    m_tools->addAction(action);
}

void CompareView::setRunNames(const QStringList& names) {
    const int a = runA(), b = runB();
    m_selecting = true;
    for (QComboBox* combo : {m_a, m_b}) {
        combo->clear();
        combo->addItems(names);
    }
    m_a->setCurrentIndex(a < names.size() ? a : -1);
    m_b->setCurrentIndex(b < names.size() ? b : -1);
    m_selecting = false;
}

void CompareView::select(int a, int b) {
    m_selecting = true;
    m_a->setCurrentIndex(a);
    m_b->setCurrentIndex(b);
    m_selecting = false;
    emitSelection();
}

int CompareView::runA() const {
    return m_a->currentIndex();
}

int CompareView::runB() const {
    return m_b->currentIndex();
}

void CompareView::emitSelection() {
    if (!m_selecting)
        emit selectionChanged(runA(), runB());
}

void CompareView::showComparison(Comparison comparison) {
    m_comparison = std::move(comparison);
    m_shown = true;
    m_chart->setDelta(m_comparison.delta);
    m_blockModel->setBlocks(m_comparison.blocks);
    m_blockTable->setVisible(!m_comparison.blocks.empty());
    m_timeline->setRowMode(strata::timeline::RowMode::Paired);
    m_timeline->setTraces({m_comparison.a, m_comparison.b},
                          {"A: " + m_comparison.nameA, "B: " + m_comparison.nameB});
    m_timeline->fit();
    showTotals();
}

void CompareView::showMessage(const QString& message) {
    m_shown = false;
    m_comparison = {};
    m_chart->showMessage(tr("Nothing to compare yet")); // the chart is narrow: the timeline says more
    m_blockModel->setBlocks({});
    m_blockTable->hide();
    m_timeline->showMessage(message);
    m_totalA->setText(figure(tr("A total"), QStringLiteral("\u2014")));
    m_totalB->setText(figure(tr("B total"), QStringLiteral("\u2014")));
    m_totalDelta->setText(figure(tr("B \u2212 A"), QStringLiteral("\u2014")));
    m_blocksNote->clear();
}

void CompareView::showTotals() {
    const trace::RunDelta& d = m_comparison.delta;
    m_totalA->setText(figure(tr("A total"), duration(d.totalAPs)));
    m_totalB->setText(figure(tr("B total"), duration(d.totalBPs)));
    const QColor color = d.deltaPs > 0 ? kSlower : d.deltaPs < 0 ? kFaster : QColor();
    m_totalDelta->setText(figure(tr("B \u2212 A"),
                                 QStringLiteral("%1 (%2%3 %)")
                                     .arg(signedDuration(d.deltaPs), d.relative >= 0 ? QStringLiteral("+") : QString())
                                     .arg(100 * d.relative, 0, 'f', 1),
                                 color));
    QStringList notes;
    notes << tr("%n block(s) compared", nullptr, static_cast<int>(d.blocks.size() - d.onlyInA - d.onlyInB));
    if (d.onlyInA)
        notes << tr("%n only in A", nullptr, static_cast<int>(d.onlyInA));
    if (d.onlyInB)
        notes << tr("%n only in B", nullptr, static_cast<int>(d.onlyInB));
    notes << (m_comparison.sameProgram ? tr("same program: events matched by instruction")
                                       : tr("different programs: lanes stacked"));
    m_blocksNote->setText(notes.join(QStringLiteral(" \u00b7 ")));
}

QString CompareView::totalsText() const {
    if (!m_shown)
        return {};
    const trace::RunDelta& d = m_comparison.delta;
    return QStringLiteral("A %1 \u00b7 B %2 \u00b7 B \u2212 A %3 (%4 %)")
        .arg(duration(d.totalAPs), duration(d.totalBPs), signedDuration(d.deltaPs))
        .arg(100 * d.relative, 0, 'f', 1);
}

} // namespace strata::views::compare
