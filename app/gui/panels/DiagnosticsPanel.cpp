#include "panels/DiagnosticsPanel.h"

#include "jobs/ModelLoader.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QPainter>
#include <QStyle>

namespace strata::gui {

namespace {

enum Role {
    SeverityRole = Qt::UserRole, // on the severity column; absent on info rows
    SourceRole,
    BlockRole, // block id, or absent
    OpRole,    // op name, or absent
};

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

QString locationText(const Location& where) {
    QStringList parts;
    if (!where.file.empty()) {
        QString file = QFileInfo(fromStd(where.file)).fileName();
        if (where.offset)
            file += QStringLiteral(" @%1").arg(*where.offset);
        parts << file;
    }
    if (!where.block.empty())
        parts << QStringLiteral("block %1").arg(fromStd(where.block));
    if (!where.node.empty())
        parts << QStringLiteral("op %1").arg(fromStd(where.node));
    if (!where.value.empty())
        parts << QStringLiteral("value %1").arg(fromStd(where.value));
    if (!where.field.empty())
        parts << QStringLiteral("field %1").arg(fromStd(where.field));
    return parts.join(QStringLiteral(", "));
}

// "B3" -> 3; anything else -> -1.
int parseBlockName(const std::string& name) {
    if (name.size() < 2 || name.front() != 'B')
        return -1;
    bool ok = false;
    const int id = fromStd(name.substr(1)).toInt(&ok);
    return ok && id >= 0 ? id : -1;
}

} // namespace

DiagnosticsPanel::DiagnosticsPanel(QWidget* parent)
    : QTreeWidget(parent),
      m_placeholder(tr("No diagnostics. Errors, warnings and notes from the import, the schedule "
                       "check and the compiler are listed here; a row naming a block or an op "
                       "shows it in the graph.")) {
    setHeaderLabels({tr("Severity"), tr("Message"), tr("Location")});
    setRootIsDecorated(false);
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setWordWrap(false);
    setTextElideMode(Qt::ElideRight);
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(MessageColumn, QHeaderView::Stretch);
    setColumnWidth(SeverityColumn, 76);
    setColumnWidth(LocationColumn, 180);
    connect(this, &QTreeWidget::itemClicked, this, &DiagnosticsPanel::onItemClicked);
    connect(this, &QTreeWidget::itemActivated, this, &DiagnosticsPanel::onItemClicked);
}

QTreeWidgetItem* DiagnosticsPanel::makeItem(Source source, const Diagnostic& d) const {
    QStyle::StandardPixmap icon = QStyle::SP_MessageBoxInformation;
    if (d.severity == Severity::Error)
        icon = QStyle::SP_MessageBoxCritical;
    else if (d.severity == Severity::Warning)
        icon = QStyle::SP_MessageBoxWarning;
    auto* item = new QTreeWidgetItem;
    item->setIcon(SeverityColumn, style()->standardIcon(icon));
    item->setText(SeverityColumn, QString::fromLatin1(severityName(d.severity)));
    item->setText(MessageColumn, fromStd(d.message));
    const QString location = locationText(d.where);
    item->setText(LocationColumn,
                  location.isEmpty() && source == Source::Layout ? tr("graph layout") : location);
    // A long message or place is elided in its column; the tooltip has all of it.
    item->setToolTip(MessageColumn, fromStd(d.toString()));
    item->setToolTip(LocationColumn, item->text(LocationColumn));
    item->setData(SeverityColumn, SeverityRole, static_cast<int>(d.severity));
    item->setData(SeverityColumn, SourceRole, static_cast<int>(source));
    const int block = parseBlockName(d.where.block);
    if (block >= 0)
        item->setData(SeverityColumn, BlockRole, block);
    if (!d.where.node.empty())
        item->setData(SeverityColumn, OpRole, fromStd(d.where.node));
    if (block >= 0 || !d.where.node.empty()) {
        // Looks like what it is: a link to the block or op.
        QFont font = item->font(LocationColumn);
        font.setUnderline(true);
        item->setFont(LocationColumn, font);
        item->setForeground(LocationColumn, palette().brush(QPalette::Link));
        item->setToolTip(LocationColumn,
                         tr("%1\nClick to show it in the graph").arg(item->text(LocationColumn)));
    }
    return item;
}

void DiagnosticsPanel::setDiagnostics(Source source, const std::vector<Diagnostic>& diagnostics) {
    setUpdatesEnabled(false);
    for (int i = topLevelItemCount() - 1; i >= 0; --i)
        if (topLevelItem(i)->data(SeverityColumn, SourceRole).toInt() == static_cast<int>(source))
            delete takeTopLevelItem(i);
    setUpdatesEnabled(true);
    appendDiagnostics(source, diagnostics);
}

void DiagnosticsPanel::clearSource(Source source) {
    setDiagnostics(source, {});
}

void DiagnosticsPanel::appendDiagnostics(Source source,
                                         const std::vector<Diagnostic>& diagnostics) {
    QList<QTreeWidgetItem*> items;
    for (const Diagnostic& d : diagnostics)
        items << makeItem(source, d);
    addTopLevelItems(items);
    emit countsChanged();
}

void DiagnosticsPanel::appendInfo(Source source, const QString& message, const QString& location) {
    auto* item = new QTreeWidgetItem;
    item->setIcon(SeverityColumn, style()->standardIcon(QStyle::SP_DialogApplyButton));
    item->setText(SeverityColumn, tr("info"));
    item->setText(MessageColumn, message);
    item->setText(LocationColumn, location);
    item->setToolTip(MessageColumn, message);
    item->setToolTip(LocationColumn, location);
    item->setData(SeverityColumn, SourceRole, static_cast<int>(source));
    addTopLevelItem(item);
    emit countsChanged();
}

int DiagnosticsPanel::count(Severity severity) const {
    int n = 0;
    for (int i = 0; i < topLevelItemCount(); ++i) {
        const QVariant s = topLevelItem(i)->data(SeverityColumn, SeverityRole);
        if (s.isValid() && s.toInt() == static_cast<int>(severity))
            ++n;
    }
    return n;
}

QString DiagnosticsPanel::title() const {
    const int errors = count(Severity::Error);
    const int warnings = count(Severity::Warning);
    QString title = tr("Diagnostics");
    if (errors > 0)
        title += errors == 1 ? tr(" (1 error)") : tr(" (%1 errors)").arg(errors);
    else if (warnings > 0)
        title += warnings == 1 ? tr(" (1 warning)") : tr(" (%1 warnings)").arg(warnings);
    return title;
}

void DiagnosticsPanel::paintEvent(QPaintEvent* event) {
    QTreeWidget::paintEvent(event);
    if (topLevelItemCount() > 0)
        return;
    QPainter painter(viewport());
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(viewport()->rect().adjusted(16, 0, -16, 0), Qt::AlignCenter | Qt::TextWordWrap,
                     m_placeholder);
}

void DiagnosticsPanel::onItemClicked(QTreeWidgetItem* item) {
    if (!item)
        return;
    const QVariant op = item->data(SeverityColumn, OpRole);
    const QVariant block = item->data(SeverityColumn, BlockRole);
    // The op is the more precise place; its block comes along with it.
    if (op.isValid())
        emit opActivated(op.toString());
    else if (block.isValid())
        emit blockActivated(block.toInt());
}

void DiagnosticsPanel::showImport(const LoadResult& result) {
    if (!result.ok()) {
        setDiagnostics(Source::Import, result.diagnostics);
        return;
    }
    clear();
    setDiagnostics(Source::Import, result.diagnostics);
    int warnings = 0;
    for (const Diagnostic& d : result.diagnostics)
        warnings += d.severity == Severity::Warning ? 1 : 0;
    const QFileInfo info(result.path);
    appendInfo(Source::Import,
               tr("Imported %1: %2 ops, %3 values, %4 warnings, %5 ms")
                   .arg(info.fileName())
                   .arg(result.graph->ops.size())
                   .arg(result.graph->values.size())
                   .arg(warnings)
                   .arg(result.elapsedMs),
               info.fileName());
}

} // namespace strata::gui
