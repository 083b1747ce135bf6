#include "views/OpTableModel.h"

#include "views/Format.h"
#include "views/OpClassStyle.h"

#include <QStringList>
#include <limits>

namespace strata::views {

namespace {

QString toQString(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString outputShapes(const ir::Graph& graph, const ir::Op& op) {
    QStringList shapes;
    for (ir::ValueId out : op.outputs)
        if (out.valid())
            shapes << formatShape(graph.value(out).shape);
    return shapes.join(QStringLiteral(", "));
}

qlonglong outputElements(const ir::Graph& graph, const ir::Op& op) {
    // Saturating: elements() already saturates, a sum of two such must not overflow.
    constexpr qlonglong kMax = std::numeric_limits<qlonglong>::max();
    qlonglong total = 0;
    for (ir::ValueId out : op.outputs) {
        if (!out.valid())
            continue;
        const qlonglong n = graph.value(out).elements();
        total = n > kMax - total ? kMax : total + n;
    }
    return total;
}

bool isNumeric(int column) {
    switch (column) {
    case OpTableModel::IndexColumn:
    case OpTableModel::FlopsColumn:
    case OpTableModel::BytesReadColumn:
    case OpTableModel::BytesWrittenColumn:
    case OpTableModel::ParametersColumn:
        return true;
    default:
        return false;
    }
}

} // namespace

OpTableModel::OpTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void OpTableModel::setGraph(std::shared_ptr<const ir::Graph> graph) {
    beginResetModel();
    m_graph = std::move(graph);
    endResetModel();
}

int OpTableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !m_graph)
        return 0;
    return static_cast<int>(m_graph->ops.size());
}

int OpTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OpTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const int column = index.column();
    const ir::Op& op = m_graph->ops[static_cast<std::size_t>(row)];
    switch (role) {
    case Qt::DisplayRole:
        return displayData(op, row, column);
    case Qt::ToolTipRole:
        return toolTip(op);
    case Qt::DecorationRole:
        if (column == ClassColumn)
            return opClassColor(op.opClass);
        return {};
    case Qt::TextAlignmentRole:
        return isNumeric(column) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                 : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case SortRole:
        return sortData(op, row, column);
    case OpIndexRole:
        return row;
    case FilterRole:
        return QString::fromStdString(op.name) + QLatin1Char(' ') + QString::fromStdString(op.type);
    default:
        return {};
    }
}

QVariant OpTableModel::displayData(const ir::Op& op, int row, int column) const {
    switch (column) {
    case IndexColumn:
        return QString::number(row);
    case NameColumn:
        return QString::fromStdString(op.name);
    case TypeColumn:
        if (op.domain.empty())
            return QString::fromStdString(op.type);
        return QString::fromStdString(op.domain + "::" + op.type);
    case ClassColumn:
        return toQString(ir::opClassName(op.opClass));
    case OutputShapesColumn:
        return outputShapes(*m_graph, op);
    case FlopsColumn:
        return formatFlops(op.cost.flops);
    case BytesReadColumn:
        return formatBytes(op.cost.bytesRead);
    case BytesWrittenColumn:
        return formatBytes(op.cost.bytesWritten);
    case ParametersColumn:
        // Most ops have no weights; a dash reads faster than a column of zeros.
        return op.cost.parameters == 0 ? QStringLiteral("—") : formatInteger(op.cost.parameters);
    default:
        return {};
    }
}

QVariant OpTableModel::sortData(const ir::Op& op, int row, int column) const {
    switch (column) {
    case IndexColumn:
        return row;
    case NameColumn:
        return QString::fromStdString(op.name).toLower();
    case TypeColumn:
        return QString::fromStdString(op.type).toLower();
    case ClassColumn:
        return toQString(ir::opClassName(op.opClass));
    case OutputShapesColumn:
        return outputElements(*m_graph, op);
    case FlopsColumn:
        return op.cost.flops;
    case BytesReadColumn:
        return QVariant::fromValue<qulonglong>(op.cost.bytesRead);
    case BytesWrittenColumn:
        return QVariant::fromValue<qulonglong>(op.cost.bytesWritten);
    case ParametersColumn:
        return QVariant::fromValue<qulonglong>(op.cost.parameters);
    default:
        return {};
    }
}

QString OpTableModel::toolTip(const ir::Op& op) const {
    auto describe = [this](const std::vector<ir::ValueId>& ids) {
        QStringList lines;
        for (ir::ValueId id : ids) {
            if (!id.valid())
                continue;
            const ir::Value& v = m_graph->value(id);
            lines << QStringLiteral("&nbsp;&nbsp;%1 : %2 %3")
                         .arg(QString::fromStdString(v.name).toHtmlEscaped(),
                              toQString(ir::dtypeName(v.dtype)), formatShape(v.shape));
        }
        return lines.join(QStringLiteral("<br>"));
    };
    return QStringLiteral("<b>%1</b> (%2)<br>inputs:<br>%3<br>outputs:<br>%4")
        .arg(QString::fromStdString(op.name).toHtmlEscaped(), QString::fromStdString(op.type),
             describe(op.inputs), describe(op.outputs));
}

QVariant OpTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::TextAlignmentRole)
        return isNumeric(section) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                  : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case FlopsColumn:
            return tr("Floating-point operations of the op");
        case BytesReadColumn:
            return tr("Bytes read from all inputs, weights included");
        case BytesWrittenColumn:
            return tr("Bytes written to all outputs");
        case ParametersColumn:
            return tr("Elements of constant inputs (weights, biases)");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case IndexColumn:
        return tr("#");
    case NameColumn:
        return tr("Name");
    case TypeColumn:
        return tr("Type");
    case ClassColumn:
        return tr("Class");
    case OutputShapesColumn:
        return tr("Output shapes");
    case FlopsColumn:
        return tr("FLOPs");
    case BytesReadColumn:
        return tr("Bytes read");
    case BytesWrittenColumn:
        return tr("Bytes written");
    case ParametersColumn:
        return tr("Params");
    default:
        return {};
    }
}

} // namespace strata::views
