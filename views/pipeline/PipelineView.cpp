#include "views/pipeline/PipelineView.h"

#include "views/Format.h"
#include "views/pipeline/PassTableModel.h"
#include "views/pipeline/ShareBarDelegate.h"
#include "views/program/StaleBanner.h"

#include <QAction>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace strata::views::pipeline {

namespace {

using M = PassTableModel;

int lineCount(std::string_view text) {
    const auto n = std::count(text.begin(), text.end(), '\n');
    return static_cast<int>(n) + (!text.empty() && text.back() != '\n' ? 1 : 0);
}

} // namespace

PipelineView::PipelineView(QWidget* parent) : QWidget(parent) {
    m_model = new PassTableModel(this);
    m_stack = new QStackedWidget;
    m_stack->addWidget(createMessagePage());
    m_stack->addWidget(createPassesPage());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    showMessage(tr("Not compiled yet."));
}

QWidget* PipelineView::createMessagePage() {
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->addStretch(1);
    m_message = new QLabel;
    m_message->setObjectName(QStringLiteral("pipelineMessage"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    QPalette dim = m_message->palette();
    dim.setColor(QPalette::WindowText, dim.color(QPalette::PlaceholderText));
    m_message->setPalette(dim);
    QFont font = m_message->font();
    font.setPointSizeF(font.pointSizeF() * 1.3);
    m_message->setFont(font);
    layout->addWidget(m_message);
    m_messageCompile = new QToolButton;
    m_messageCompile->hide();
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(m_messageCompile);
    row->addStretch(1);
    layout->addLayout(row);
    layout->addStretch(1);
    return page;
}

QWidget* PipelineView::createPassesPage() {
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("passTable"));
    m_table->setModel(m_model);
    m_table->setItemDelegateForColumn(M::ShareColumn, new ShareBarDelegate(M::ShareRole, m_table));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setShowGrid(false);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 10);
    QHeaderView* header = m_table->horizontalHeader();
    header->setHighlightSections(false);
    header->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(M::SummaryColumn, QHeaderView::Stretch);
    const int em = m_table->fontMetrics().horizontalAdvance(QLatin1Char('m'));
    m_table->setColumnWidth(M::NameColumn, 13 * em);
    m_table->setColumnWidth(M::TimeColumn, 7 * em);
    m_table->setColumnWidth(M::ShareColumn, 18 * em);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &PipelineView::showDump);

    m_totals = new QLabel;
    m_totals->setObjectName(QStringLiteral("pipelineTotals"));
    m_totals->setTextFormat(Qt::RichText);

    auto* top = new QWidget;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(6, 6, 6, 6);
    m_banner = new program::StaleBanner;
    topLayout->addWidget(m_banner);
    topLayout->addWidget(m_table, 1);
    topLayout->addWidget(m_totals);

    m_dumpTitle = new QLabel;
    m_dumpTitle->setObjectName(QStringLiteral("dumpTitle"));
    m_dumpTitle->setTextFormat(Qt::RichText);
    m_save = new QPushButton(tr("Save Dump…"));
    m_save->setObjectName(QStringLiteral("saveDump"));
    connect(m_save, &QPushButton::clicked, this, &PipelineView::saveDump);
    m_dump = new QPlainTextEdit;
    m_dump->setObjectName(QStringLiteral("passDump"));
    m_dump->setReadOnly(true);
    m_dump->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_dump->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_dump->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_dump->setUndoRedoEnabled(false);

    auto* bottom = new QWidget;
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(6, 0, 6, 0);
    auto* titleRow = new QHBoxLayout;
    titleRow->addWidget(m_dumpTitle, 1);
    titleRow->addWidget(m_save);
    bottomLayout->addLayout(titleRow);
    bottomLayout->addWidget(m_dump, 1);

    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->setObjectName(QStringLiteral("pipelineSplitter"));
    splitter->addWidget(top);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    // The pass table at its natural height: a header and a handful of rows.
    const int rows = static_cast<int>(compiler::passes().size());
    const int totalsHeight = m_totals->sizeHint().height();
    splitter->setSizes(
        {m_table->verticalHeader()->defaultSectionSize() * (rows + 1) + totalsHeight + 30, 600});
    return splitter;
}

void PipelineView::setCompileAction(QAction* action) {
    m_messageCompile->setDefaultAction(action);
    m_messageCompile->setVisible(action != nullptr);
    m_banner->setAction(action);
}

void PipelineView::showMessage(const QString& text) {
    m_compiled = {};
    m_model->setResult(nullptr);
    m_dump->clear();
    m_shownRow = -2;
    m_message->setText(text);
    m_stack->setCurrentIndex(0);
    m_banner->hide();
}

void PipelineView::setStale(bool stale) {
    m_banner->setVisible(stale && m_stack->currentIndex() == 1);
}

bool PipelineView::isStale() const {
    return !m_banner->isHidden();
}

void PipelineView::setProgram(const program::CompiledProgram& compiled) {
    if (!compiled.isValid()) {
        showMessage(tr("Not compiled yet."));
        return;
    }
    const QString keep = selectedPass();
    m_compiled = compiled;
    m_shownRow = -2;
    m_model->setResult(compiled.result);
    m_stack->setCurrentIndex(1);
    m_banner->hide();

    const compiler::CompileResult& r = *compiled.result;
    const compiler::Program& p = r.program;
    const double passes = m_model->totalMilliseconds();
    m_totals->setText(
        tr("<b>%1 passes: %2</b> &nbsp;·&nbsp; whole compile %3 ms (schedule check included) "
           "&nbsp;·&nbsp; %4 instructions, %5 moved &nbsp;·&nbsp; %6 warnings")
            .arg(m_model->rowCount())
            .arg(PassTableModel::formatMilliseconds(passes))
            .arg(compiled.elapsedMs)
            .arg(formatInteger(p.instructions.size()), formatBytes(p.transferredBytes()))
            .arg(r.warnings.size()));
    if (!selectPass(keep) && m_model->rowCount() > 0)
        m_table->selectRow(0);
    showDump();
}

bool PipelineView::selectPass(const QString& name) {
    const int row = m_model->rowOfPass(name.toStdString());
    if (row < 0)
        return false;
    m_table->selectRow(row);
    showDump();
    return true;
}

QString PipelineView::selectedPass() const {
    const QModelIndex index = m_table->currentIndex();
    return index.isValid() ? QString::fromStdString(m_model->passAt(index.row()).name) : QString();
}

std::string_view PipelineView::shownPart(std::string_view dump, int maxLines,
                                         std::size_t maxBytes) {
    std::size_t end = 0;
    for (int lines = 0; end < dump.size() && lines < maxLines; ++lines) {
        const std::size_t next = dump.find('\n', end);
        const std::size_t stop = next == std::string_view::npos ? dump.size() : next + 1;
        if (stop > maxBytes) {
            if (lines == 0)
                end = maxBytes; // a first line longer than the limit: cut it
            break;
        }
        end = stop;
    }
    return dump.substr(0, end);
}

void PipelineView::showDump() {
    const int row = m_table->currentIndex().row();
    if (row == m_shownRow)
        return; // a dump of a million lines is not set twice
    m_shownRow = row;
    if (row < 0) {
        m_dump->clear();
        m_dumpTitle->clear();
        m_save->setEnabled(false);
        return;
    }
    const compiler::PassRecord& pass = m_model->passAt(row);
    const std::string_view shown = shownPart(pass.dump, kMaxShownLines, kMaxShownBytes);
    const int lines = lineCount(pass.dump);
    QString title = tr("<b>IR after %1</b> &nbsp;·&nbsp; %2 lines, %3")
                        .arg(QString::fromStdString(pass.name), formatInteger(lines),
                             formatBytes(pass.dump.size()));
    if (shown.size() < pass.dump.size())
        title += tr(" &nbsp;·&nbsp; showing the first %1 lines (save the dump to read it all; "
                    "the Program tab lists every instruction)")
                     .arg(formatInteger(lineCount(shown)));
    if (pass.dump.empty())
        title += tr(" &nbsp;·&nbsp; no dump recorded");
    m_dumpTitle->setText(title);
    m_save->setEnabled(!pass.dump.empty());
    // One setPlainText: the document is laid out once, not per appended block.
    m_dump->setPlainText(QString::fromUtf8(shown.data(), static_cast<qsizetype>(shown.size())));
}

void PipelineView::saveDump() {
    const int row = m_table->currentIndex().row();
    if (row < 0)
        return;
    const compiler::PassRecord& pass = m_model->passAt(row);
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save IR Dump"), QStringLiteral("%1.txt").arg(QString::fromStdString(pass.name)),
        tr("Text files (*.txt *.s);;All files (*)"));
    if (path.isEmpty())
        return;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(pass.dump.data(), static_cast<qint64>(pass.dump.size())) !=
            static_cast<qint64>(pass.dump.size()) ||
        !file.commit())
        QMessageBox::warning(this, tr("Save IR Dump"),
                             tr("Could not write %1: %2").arg(path, file.errorString()));
}

} // namespace strata::views::pipeline
