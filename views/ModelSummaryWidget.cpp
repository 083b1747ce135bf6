#include "views/ModelSummaryWidget.h"

#include "views/Format.h"
#include "views/OpClassStyle.h"

#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace strata::views {

namespace {

constexpr int kMaxValueRows = 6; // inputs/outputs tables scroll beyond this

QLabel* makeHeading(QWidget* parent) {
    auto* label = new QLabel(parent);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    label->setContentsMargins(0, 8, 0, 0);
    return label;
}

QLabel* makeValueLabel(QWidget* parent, const char* objectName) {
    auto* label = new QLabel(parent);
    label->setObjectName(QLatin1String(objectName));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

QTreeWidget* makeTable(QWidget* parent, const char* objectName, const QStringList& headers) {
    auto* table = new QTreeWidget(parent);
    table->setObjectName(QLatin1String(objectName));
    table->setColumnCount(static_cast<int>(headers.size()));
    table->setHeaderLabels(headers);
    table->setRootIsDecorated(false);
    table->setUniformRowHeights(true);
    table->setAlternatingRowColors(true);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    table->header()->setStretchLastSection(true);
    table->header()->setSectionsMovable(false);
    return table;
}

// Fits a small table to its rows so short lists take no more room than they need.
void fitHeight(QTreeWidget* table, int rows) {
    const int rowHeight = table->fontMetrics().height() + 6;
    const int visibleRows = std::clamp(rows, 1, kMaxValueRows);
    const int height = table->header()->sizeHint().height() + visibleRows * rowHeight +
                       2 * table->frameWidth() + 2;
    table->setFixedHeight(height);
}

} // namespace

ModelSummaryWidget::ModelSummaryWidget(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 10, 10, 10);
    layout->setSpacing(4);

    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("summaryTitle"));
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.35);
    m_title->setFont(titleFont);
    m_title->setWordWrap(true);
    layout->addWidget(m_title);

    auto* form = new QFormLayout;
    form->setContentsMargins(0, 6, 0, 0);
    form->setLabelAlignment(Qt::AlignLeft);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setHorizontalSpacing(16);
    form->setVerticalSpacing(4);
    m_file = makeValueLabel(this, "summaryFile");
    m_opset = makeValueLabel(this, "summaryOpset");
    m_nodes = makeValueLabel(this, "summaryNodes");
    m_parameters = makeValueLabel(this, "summaryParameters");
    m_flops = makeValueLabel(this, "summaryFlops");
    // Field names one step quieter than their values.
    auto addRow = [this, form](const QString& name, QLabel* value) {
        auto* label = new QLabel(name, this);
        QPalette palette = label->palette();
        palette.setColor(QPalette::WindowText, palette.color(QPalette::PlaceholderText));
        label->setPalette(palette);
        form->addRow(label, value);
    };
    addRow(tr("File"), m_file);
    addRow(tr("Opset"), m_opset);
    addRow(tr("Nodes"), m_nodes);
    addRow(tr("Parameters"), m_parameters);
    addRow(tr("Total FLOPs"), m_flops);
    layout->addLayout(form);

    const QStringList valueHeaders = {tr("Name"), tr("Type"), tr("Shape")};
    m_inputsHeading = makeHeading(this);
    m_inputs = makeTable(this, "inputsTable", valueHeaders);
    m_outputsHeading = makeHeading(this);
    m_outputs = makeTable(this, "outputsTable", valueHeaders);
    m_opTypesHeading = makeHeading(this);
    m_opTypes = makeTable(this, "opTypesTable", {tr("Op type"), tr("Count")});
    m_opTypes->setSortingEnabled(false);
    m_opTypes->headerItem()->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);

    layout->addWidget(m_inputsHeading);
    layout->addWidget(m_inputs);
    layout->addWidget(m_outputsHeading);
    layout->addWidget(m_outputs);
    layout->addWidget(m_opTypesHeading);
    layout->addWidget(m_opTypes, 1);

    clear();
}

void ModelSummaryWidget::clear() {
    setGraph(nullptr, {});
}

void ModelSummaryWidget::setGraph(std::shared_ptr<const ir::Graph> graph, const QString& filePath) {
    m_graph = std::move(graph);
    const QFileInfo info(filePath);
    if (!m_graph) {
        m_title->setText(tr("No model loaded"));
        for (QLabel* label : {m_file, m_opset, m_nodes, m_parameters, m_flops})
            label->clear();
        m_file->setToolTip({});
    } else {
        const QString name =
            m_graph->name.empty() ? info.completeBaseName() : QString::fromStdString(m_graph->name);
        m_title->setText(name);
        m_file->setText(info.fileName());
        m_file->setToolTip(QDir::toNativeSeparators(info.absoluteFilePath()));
        m_opset->setText(m_graph->opsetVersion > 0 ? QString::number(m_graph->opsetVersion)
                                                   : tr("unknown"));
        m_nodes->setText(formatInteger(m_graph->ops.size()));
        m_parameters->setText(m_graph->parameterCount < 1000
                                  ? formatInteger(m_graph->parameterCount)
                                  : QStringLiteral("%1  (%2)")
                                        .arg(formatCount(m_graph->parameterCount),
                                             formatInteger(m_graph->parameterCount)));
        m_flops->setText(formatFlops(m_graph->totalFlops()));
    }

    static const std::vector<ir::ValueId> kNone;
    fillValueTable(m_inputs, m_graph ? m_graph->inputs : kNone);
    fillValueTable(m_outputs, m_graph ? m_graph->outputs : kNone);
    m_inputsHeading->setText(tr("Inputs (%1)").arg(m_inputs->topLevelItemCount()));
    m_outputsHeading->setText(tr("Outputs (%1)").arg(m_outputs->topLevelItemCount()));
    fillOpTypes();
}

void ModelSummaryWidget::fillValueTable(QTreeWidget* table, const std::vector<ir::ValueId>& ids) {
    table->clear();
    QList<QTreeWidgetItem*> items;
    for (ir::ValueId id : ids) {
        const ir::Value& value = m_graph->value(id);
        const std::string_view dtype = ir::dtypeName(value.dtype);
        auto* item = new QTreeWidgetItem(
            {QString::fromStdString(value.name),
             QString::fromUtf8(dtype.data(), static_cast<qsizetype>(dtype.size())),
             formatShape(value.shape)});
        item->setToolTip(0, item->text(0));
        items << item;
    }
    table->addTopLevelItems(items);
    table->resizeColumnToContents(0);
    table->resizeColumnToContents(1);
    fitHeight(table, static_cast<int>(items.size()));
}

void ModelSummaryWidget::fillOpTypes() {
    m_opTypes->clear();
    if (!m_graph) {
        m_opTypesHeading->setText(tr("Op types"));
        return;
    }
    auto counts = m_graph->opTypeCounts(); // sorted by name; show the most frequent first
    std::stable_sort(counts.begin(), counts.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    QList<QTreeWidgetItem*> items;
    for (const auto& [type, count] : counts) {
        auto* item = new QTreeWidgetItem({QString::fromStdString(type), QString::number(count)});
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        // The same colour the op table gives the type's class.
        const auto op = std::find_if(m_graph->ops.begin(), m_graph->ops.end(),
                                     [&type](const ir::Op& o) { return o.type == type; });
        if (op != m_graph->ops.end()) {
            item->setData(0, Qt::DecorationRole, opClassColor(op->opClass));
            const std::string_view className = ir::opClassName(op->opClass);
            item->setToolTip(
                0, QString::fromUtf8(className.data(), static_cast<qsizetype>(className.size())));
        }
        items << item;
    }
    m_opTypes->addTopLevelItems(items);
    m_opTypes->resizeColumnToContents(0);
    m_opTypes->setColumnWidth(0, std::max(m_opTypes->columnWidth(0) + 24, 160));
    m_opTypesHeading->setText(tr("Op types (%1)").arg(items.size()));
}

} // namespace strata::views
