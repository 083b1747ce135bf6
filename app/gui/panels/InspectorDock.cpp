#include "panels/InspectorDock.h"

#include "document/ScheduleDocument.h"
#include "document/Selection.h"
#include "views/inspector/InspectorView.h"
#include "views/schedule/ScheduleTableModel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPalette>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

namespace strata::gui {

namespace {

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

} // namespace

InspectorDock::InspectorDock(Selection* selection, views::schedule::ScheduleTableModel* model,
                             ScheduleDocument* document, QWidget* parent)
    : QDockWidget(tr("Inspector"), parent), m_selection(selection), m_model(model),
      m_document(document) {
    setObjectName(QStringLiteral("inspectorDock"));
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(6);

    m_title = new QLabel;
    m_title->setObjectName(QStringLiteral("inspectorTitle"));
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
    m_title->setFont(titleFont);
    layout->addWidget(m_title);

    m_mpRow = new QWidget;
    auto* mpRow = new QHBoxLayout(m_mpRow);
    mpRow->setContentsMargins(0, 0, 0, 0);
    auto* mpLabel = new QLabel(tr("Cores (mp):"));
    m_mp = new QSpinBox;
    m_mp->setObjectName(QStringLiteral("inspectorMp"));
    m_mp->setKeyboardTracking(false); // one edit per value typed, not per digit
    m_mp->setToolTip(tr("Cores the block's tiles are spread over; an edit here is undoable like "
                        "one in the schedule table"));
    mpLabel->setBuddy(m_mp);
    m_mpLimit = new QLabel;
    m_mpLimit->setObjectName(QStringLiteral("inspectorMpLimit"));
    mpRow->addWidget(mpLabel);
    mpRow->addWidget(m_mp);
    mpRow->addWidget(m_mpLimit, 1);
    layout->addWidget(m_mpRow);

    m_view = new views::inspector::InspectorView;
    m_view->setObjectName(QStringLiteral("inspectorView"));
    layout->addWidget(m_view, 1);
    m_hint = new QLabel(tr("Select an op or a block in the graph or the schedule table to see its "
                           "attributes, tensors, tiling and times here."));
    m_hint->setObjectName(QStringLiteral("inspectorHint"));
    m_hint->setWordWrap(true);
    m_hint->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    QPalette muted = m_hint->palette();
    muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
    m_hint->setPalette(muted);
    layout->addWidget(m_hint, 1);
    // Wide enough for a tensor's name and its shape, dtype and size side by side.
    page->setMinimumWidth(420);
    setWidget(page);

    connect(m_mp, &QSpinBox::valueChanged, this, &InspectorDock::requestMp);
    connect(m_selection, &Selection::changed, this, &InspectorDock::followSelection);
    connect(m_model, &QAbstractItemModel::modelReset, this, &InspectorDock::refresh);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &InspectorDock::refresh);
    // A refused edit leaves the schedule as it was: the editor goes back to the block's mp.
    connect(m_document, &ScheduleDocument::editRefused, this, &InspectorDock::refresh);
    showNothing();
}

void InspectorDock::followSelection() {
    if (const auto op = m_selection->singleOp())
        showOp(*op);
    else if (const int block = m_selection->singleBlock(); block >= 0)
        showBlock(block);
    else
        showNothing();
}

void InspectorDock::showOp(ir::OpId op) {
    m_op = op;
    m_block = m_document->blockOfOp(op);
    refresh();
}

void InspectorDock::showBlock(int block) {
    m_op.reset();
    m_block = block;
    refresh();
}

void InspectorDock::showNothing() {
    m_op.reset();
    m_block = -1;
    refresh();
}

void InspectorDock::refresh() {
    const auto graph = m_document->graph();
    std::vector<views::inspector::Section> sections;
    QString title;
    if (m_op && graph && m_op->index < graph->ops.size()) {
        const ir::Op& op = graph->op(*m_op);
        title = tr("%1  %2").arg(fromStd(op.type), fromStd(op.name));
        sections = views::inspector::opSections(*graph, *m_op);
        m_block = m_document->blockOfOp(*m_op); // edits move ops between blocks
    } else {
        m_op.reset();
    }
    std::vector<views::inspector::Section> block =
        m_block >= 0 ? views::inspector::blockSections(*m_model, m_block)
                     : std::vector<views::inspector::Section>{};
    if (title.isEmpty() && !block.empty())
        title = block.front().title;
    sections.insert(sections.end(), block.begin(), block.end());
    // Nothing selected: only the hint, no empty table.
    m_title->setVisible(!title.isEmpty());
    m_view->setVisible(!sections.empty());
    m_hint->setVisible(sections.empty());
    m_title->setText(title);
    m_view->setSections(sections);

    const int row = block.empty() ? -1 : m_model->rowOfBlock(m_block);
    const QSignalBlocker quiet(m_mp); // showing the value is not an edit
    m_mp->setEnabled(row >= 0);
    m_mpRow->setVisible(row >= 0);
    if (row < 0) {
        m_mp->setRange(0, 0);
        m_mpLimit->clear();
        return;
    }
    using Model = views::schedule::ScheduleTableModel;
    const int maxMp =
        std::max(1, m_model->data(m_model->index(row, Model::MpColumn), Model::MaxMpRole).toInt());
    m_mp->setRange(1, maxMp);
    m_mp->setValue(m_model->data(m_model->index(row, Model::MpColumn), Qt::EditRole).toInt());
    m_mpLimit->setText(tr("of %1").arg(maxMp));
}

void InspectorDock::requestMp() {
    using Model = views::schedule::ScheduleTableModel;
    const int row = m_model->rowOfBlock(m_block);
    if (row >= 0)
        m_model->setData(m_model->index(row, Model::MpColumn), m_mp->value(), Qt::EditRole);
}

} // namespace strata::gui
