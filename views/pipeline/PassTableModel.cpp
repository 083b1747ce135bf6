#include "views/pipeline/PassTableModel.h"

#include <QString>

namespace strata::views::pipeline {

namespace {

// The pipeline's own one-line description of a pass, or nothing for one it no longer has.
QString summaryOf(const std::string& name) {
    for (const compiler::Pass& pass : compiler::passes())
        if (pass.name == name)
            return QString::fromStdString(pass.summary);
    return {};
}

} // namespace

PassTableModel::PassTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void PassTableModel::setResult(std::shared_ptr<const compiler::CompileResult> result) {
    beginResetModel();
    m_result = std::move(result);
    m_total = 0;
    if (m_result)
        for (const compiler::PassRecord& p : m_result->passes)
            m_total += p.milliseconds;
    endResetModel();
}

const compiler::PassRecord& PassTableModel::passAt(int row) const {
    return m_result->passes[static_cast<std::size_t>(row)];
}

int PassTableModel::rowOfPass(const std::string& name) const {
    for (int row = 0; row < rowCount(); ++row)
        if (passAt(row).name == name)
            return row;
    return -1;
}

int PassTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_result ? 0 : static_cast<int>(m_result->passes.size());
}

int PassTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PassTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const compiler::PassRecord& pass = passAt(index.row());
    const double share = m_total > 0 ? pass.milliseconds / m_total : 0.0;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return QString::fromStdString(pass.name);
        case SummaryColumn:
            return summaryOf(pass.name);
        case TimeColumn:
            return formatMilliseconds(pass.milliseconds);
        case ShareColumn:
            return QStringLiteral("%1 %").arg(share * 100.0, 0, 'f', 1);
        }
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == TimeColumn || index.column() == ShareColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (index.column() == SummaryColumn)
            return summaryOf(pass.name);
        return {};
    case SortRole:
        if (index.column() == TimeColumn || index.column() == ShareColumn)
            return pass.milliseconds;
        return QString::fromStdString(pass.name);
    case ShareRole:
        return share;
    }
    return {};
}

QVariant PassTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn:
        return tr("Pass");
    case SummaryColumn:
        return tr("What it does");
    case TimeColumn:
        return tr("Time");
    case ShareColumn:
        return tr("Share");
    }
    return {};
}

QString PassTableModel::formatMilliseconds(double ms) {
    if (ms >= 1000.0)
        return QStringLiteral("%1 s").arg(ms / 1000.0, 0, 'f', 2);
    if (ms >= 10.0)
        return QStringLiteral("%1 ms").arg(ms, 0, 'f', 1);
    // A pass of a few microseconds still shows a non-zero time.
    return QStringLiteral("%1 ms").arg(ms, 0, 'f', ms >= 0.1 ? 2 : 3);
}

} // namespace strata::views::pipeline
