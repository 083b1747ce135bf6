#include "views/program/ProgramView.h"

#include "views/Format.h"
#include "views/program/ProgramListingModel.h"
#include "views/program/StaleBanner.h"

#include <QAction>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace strata::views::program {

namespace {

using M = ProgramListingModel;
using compiler::InstrKind;

constexpr int kSearchDelayMs = 150; // re-filtering half a million rows per keystroke is wasted

QLabel* dimLabel(const QString& text = {}) {
    auto* label = new QLabel(text);
    QPalette dim = label->palette();
    dim.setColor(QPalette::WindowText, dim.color(QPalette::PlaceholderText));
    label->setPalette(dim);
    return label;
}

} // namespace

ProgramView::ProgramView(QWidget* parent) : QWidget(parent) {
    m_model = new ProgramListingModel(this);
    m_stack = new QStackedWidget;
    m_stack->addWidget(createMessagePage());
    m_stack->addWidget(createListingPage());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    showMessage(tr("Not compiled yet."));
}

QWidget* ProgramView::createMessagePage() {
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->addStretch(1);
    m_message = dimLabel();
    m_message->setObjectName(QStringLiteral("programMessage"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    QFont font = m_message->font();
    font.setPointSizeF(font.pointSizeF() * 1.3);
    m_message->setFont(font);
    layout->addWidget(m_message);
    m_messageCompile = new QToolButton;
    m_messageCompile->setToolButtonStyle(Qt::ToolButtonTextOnly);
    m_messageCompile->hide();
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(m_messageCompile);
    row->addStretch(1);
    layout->addLayout(row);
    layout->addStretch(1);
    return page;
}

QWidget* ProgramView::createListingPage() {
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->setSpacing(6);

    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("programSummary"));
    m_summary->setTextFormat(Qt::RichText);
    layout->addWidget(m_summary);

    m_banner = new StaleBanner;
    layout->addWidget(m_banner);

    auto* filters = new QHBoxLayout;
    m_core = new QComboBox;
    m_core->setObjectName(QStringLiteral("coreFilter"));
    m_kind = new QComboBox;
    m_kind->setObjectName(QStringLiteral("kindFilter"));
    m_kind->addItem(tr("All kinds"), -1);
    for (InstrKind kind :
         {InstrKind::Transfer, InstrKind::Wait, InstrKind::Compute, InstrKind::Barrier})
        m_kind->addItem(QString::fromLatin1(compiler::instrKindName(kind)), static_cast<int>(kind));
    m_block = new QComboBox;
    m_block->setObjectName(QStringLiteral("blockFilter"));
    m_block->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_search = new QLineEdit;
    m_search->setObjectName(QStringLiteral("programSearch"));
    m_search->setPlaceholderText(tr("Search op, tensor, mnemonic or id…"));
    m_search->setClearButtonEnabled(true);
    m_searchDelay = new QTimer(this);
    m_searchDelay->setSingleShot(true);
    m_searchDelay->setInterval(kSearchDelayMs);
    connect(m_searchDelay, &QTimer::timeout, this, &ProgramView::applyFilter);
    connect(m_search, &QLineEdit::textChanged, m_searchDelay, qOverload<>(&QTimer::start));
    connect(m_search, &QLineEdit::returnPressed, this, &ProgramView::applyFilter);
    for (QComboBox* box : {m_core, m_kind, m_block})
        connect(box, &QComboBox::activated, this, &ProgramView::applyFilter);
    m_count = dimLabel();
    m_count->setObjectName(QStringLiteral("programCount"));
    m_linked = new QLabel;
    m_linked->setObjectName(QStringLiteral("programLinked"));
    m_previous = new QToolButton;
    m_previous->setArrowType(Qt::UpArrow);
    m_previous->setToolTip(tr("Previous highlighted instruction"));
    m_next = new QToolButton;
    m_next->setArrowType(Qt::DownArrow);
    m_next->setToolTip(tr("Next highlighted instruction"));
    connect(m_previous, &QToolButton::clicked, this, [this] { showNextHighlighted(false); });
    connect(m_next, &QToolButton::clicked, this, [this] { showNextHighlighted(true); });
    filters->addWidget(m_core);
    filters->addWidget(m_kind);
    filters->addWidget(m_block);
    filters->addWidget(m_search, 1);
    filters->addWidget(m_count);
    filters->addSpacing(12);
    filters->addWidget(m_linked);
    filters->addWidget(m_previous);
    filters->addWidget(m_next);
    layout->addLayout(filters);

    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("programListing"));
    m_table->setModel(m_model);
    m_table->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setShowGrid(false);
    m_table->setAlternatingRowColors(true);
    m_table->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    // Fixed row heights: the view never measures rows, whatever their number.
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    QHeaderView* header = m_table->horizontalHeader();
    header->setHighlightSections(false);
    header->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(true);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ProgramView::onCurrentRowChanged);
    fitColumns();
    layout->addWidget(m_table, 1);
    return page;
}

void ProgramView::fitColumns() {
    const QFontMetrics fm = m_table->fontMetrics();
    const int pad = 16;
    m_table->setColumnWidth(M::IdColumn, fm.horizontalAdvance(QStringLiteral("i0000000")) + pad);
    m_table->setColumnWidth(M::CoreColumn, fm.horizontalAdvance(QStringLiteral("Core ")) + pad);
    m_table->setColumnWidth(M::KindColumn, fm.horizontalAdvance(QStringLiteral("transfer")) + pad);
    m_table->setColumnWidth(M::BlockColumn, fm.horizontalAdvance(QStringLiteral("B0000")) + pad);
    m_table->setColumnWidth(M::OpColumn, fm.horizontalAdvance(QLatin1Char('m')) * 26 + pad);
}

void ProgramView::setCompileAction(QAction* action) {
    m_messageCompile->setDefaultAction(action);
    m_messageCompile->setVisible(action != nullptr);
    m_banner->setAction(action);
}

void ProgramView::showMessage(const QString& text) {
    m_model->setProgram(nullptr, nullptr);
    m_message->setText(text);
    m_stack->setCurrentIndex(0);
    m_banner->hide();
}

bool ProgramView::isShowingProgram() const {
    return m_stack->currentIndex() == 1;
}

void ProgramView::setStale(bool stale) {
    m_banner->setVisible(stale && isShowingProgram());
}

bool ProgramView::isStale() const {
    return !m_banner->isHidden();
}

void ProgramView::setProgram(const CompiledProgram& compiled) {
    const auto program = compiled.program();
    if (!compiled.isValid()) {
        showMessage(tr("Not compiled yet."));
        return;
    }
    const std::optional<compiler::InstrId> keep = currentInstruction();
    m_model->setProgram(compiled.graph, program);
    fillFilters();
    const compiler::Program& p = *program;
    m_summary->setText(
        tr("<b>%1</b> on <b>%2</b> &nbsp;·&nbsp; %3 cores &nbsp;·&nbsp; %4 instructions: %5 "
           "transfers (%6), %7 computes, %8 waits, %9 barriers &nbsp;·&nbsp; %10 %11 plan")
            .arg(QString::fromStdString(p.modelName).toHtmlEscaped(),
                 compiled.targetName.toHtmlEscaped())
            .arg(p.cores)
            .arg(formatInteger(p.instructions.size()), formatInteger(p.count(InstrKind::Transfer)),
                 formatBytes(p.transferredBytes()), formatInteger(p.count(InstrKind::Compute)),
                 formatInteger(p.count(InstrKind::Wait)),
                 formatInteger(p.count(InstrKind::Barrier)), formatBytes(p.dramBytes),
                 QString::fromStdString(p.mainMemory)));
    m_stack->setCurrentIndex(1);
    m_banner->hide();
    updateCounts();
    // The same instruction id after a recompile is another instruction: start at the top
    // unless the id still exists (a recompile of an unchanged schedule).
    if (keep && *keep < p.instructions.size())
        if (const int row = m_model->rowOfInstruction(*keep); row >= 0) {
            m_programmatic = true;
            m_table->setCurrentIndex(m_model->index(row, 0));
            m_table->scrollTo(m_model->index(row, 0), QAbstractItemView::PositionAtCenter);
            m_programmatic = false;
        }
}

void ProgramView::fillFilters() {
    const compiler::Program* p = m_model->program();
    const ListingFilter& f = m_model->filter();
    m_core->clear();
    m_core->addItem(tr("All cores"), -1);
    for (int c = 0; p && c < p->cores; ++c)
        m_core->addItem(tr("Core %1").arg(c), c);
    m_core->setCurrentIndex(std::max(0, m_core->findData(f.core)));
    m_block->clear();
    m_block->addItem(tr("All blocks"), -1);
    for (int id : m_model->blockIds())
        m_block->addItem(QStringLiteral("B%1").arg(id), id);
    m_block->setCurrentIndex(std::max(0, m_block->findData(f.block)));
    m_kind->setCurrentIndex(std::max(0, m_kind->findData(f.kind ? static_cast<int>(*f.kind) : -1)));
}

void ProgramView::applyFilter() {
    m_searchDelay->stop();
    ListingFilter filter;
    filter.core = m_core->currentData().toInt();
    filter.block = m_block->currentData().toInt();
    if (const int kind = m_kind->currentData().toInt(); kind >= 0)
        filter.kind = static_cast<InstrKind>(kind);
    filter.search = m_search->text().trimmed();
    if (filter == m_model->filter())
        return;
    const std::optional<compiler::InstrId> keep = currentInstruction();
    m_model->setFilter(filter);
    updateCounts();
    const int row = keep ? m_model->rowOfInstruction(*keep) : -1;
    if (row >= 0) {
        m_programmatic = true;
        m_table->setCurrentIndex(m_model->index(row, 0));
        m_table->scrollTo(m_model->index(row, 0), QAbstractItemView::PositionAtCenter);
        m_programmatic = false;
    }
}

void ProgramView::updateCounts() {
    const int shown = m_model->rowCount();
    const int total = m_model->instructionCount();
    m_count->setText(shown == total
                         ? tr("%1 instructions").arg(formatInteger(total))
                         : tr("%1 of %2").arg(formatInteger(shown), formatInteger(total)));
    const ListingHighlight& h = m_model->highlight();
    const bool any = !h.isEmpty() && m_model->graph();
    QString what;
    if (any && h.op && h.op->index < m_model->graph()->ops.size())
        what = QString::fromStdString(m_model->graph()->op(*h.op).name);
    else if (any)
        what = QStringLiteral("B%1").arg(h.block);
    m_linked->setText(any ? tr("%1: %2 highlighted")
                                .arg(fontMetrics().elidedText(what, Qt::ElideMiddle, 260),
                                     formatInteger(m_model->highlightedCount()))
                          : QString());
    m_linked->setToolTip(what);
    m_previous->setEnabled(m_model->highlightedCount() > 0);
    m_next->setEnabled(m_model->highlightedCount() > 0);
}

void ProgramView::highlightOp(ir::OpId op) {
    ListingHighlight h;
    h.op = op;
    m_model->setHighlight(h);
    highlight(true);
}

void ProgramView::highlightBlock(int block) {
    ListingHighlight h;
    h.block = block;
    m_model->setHighlight(h);
    highlight(true);
}

void ProgramView::clearHighlight() {
    m_model->setHighlight({});
    highlight(false);
}

void ProgramView::highlight(bool any) {
    updateCounts();
    if (!any)
        return;
    const int current = m_table->currentIndex().row();
    if (m_model->isHighlighted(current))
        return; // e.g. the user's own pick, echoed back through the graph
    const int first = m_model->nextHighlighted(-1);
    if (first < 0)
        return;
    m_programmatic = true;
    m_table->setCurrentIndex(m_model->index(first, 0));
    m_table->scrollTo(m_model->index(first, 0), QAbstractItemView::PositionAtTop);
    m_programmatic = false;
}

void ProgramView::showNextHighlighted(bool forward) {
    const int row = m_model->nextHighlighted(m_table->currentIndex().row(), forward);
    if (row < 0)
        return;
    m_programmatic = true; // stay on the op or block: it is what is highlighted
    m_table->setCurrentIndex(m_model->index(row, 0));
    m_table->scrollTo(m_model->index(row, 0));
    m_programmatic = false;
}

std::optional<compiler::InstrId> ProgramView::currentInstruction() const {
    const QModelIndex index = m_table->currentIndex();
    if (!index.isValid())
        return std::nullopt;
    return index.data(M::InstrIdRole).toUInt();
}

bool ProgramView::selectInstruction(compiler::InstrId id) {
    if (id >= static_cast<compiler::InstrId>(m_model->instructionCount()))
        return false;
    if (m_model->rowOfInstruction(id) < 0) {
        m_search->clear();
        m_core->setCurrentIndex(0);
        m_kind->setCurrentIndex(0);
        m_block->setCurrentIndex(0);
        applyFilter();
    }
    const QModelIndex index = m_model->index(m_model->rowOfInstruction(id), 0);
    const bool already = m_table->currentIndex().row() == index.row();
    m_table->setCurrentIndex(index);
    m_table->scrollTo(index, QAbstractItemView::PositionAtCenter);
    if (already)
        emit instructionSelected(id);
    return true;
}

void ProgramView::onCurrentRowChanged() {
    if (m_programmatic)
        return;
    if (const auto id = currentInstruction())
        emit instructionSelected(*id);
}

} // namespace strata::views::program
