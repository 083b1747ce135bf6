#pragma once
// The diagnostics dock's list: what the import, the layouts and the schedule have to say, one
// row each (severity, message, where). Each source's rows can be replaced on their own (the
// schedule check's with every revision). A row that names a block or an op is a link: a click
// asks to show it. Empty, it says what would appear there.

#include "base/Diagnostic.h"

#include <QTreeWidget>
#include <vector>

namespace strata::gui {

struct LoadResult;

class DiagnosticsPanel : public QTreeWidget {
    Q_OBJECT

  public:
    enum Column { SeverityColumn, MessageColumn, LocationColumn };
    // Action: what the user's last action ran into (a refused edit, a target that did not
    // load), replaced by the next one. Compile: the last compile's errors or warnings.
    enum class Source { Import, Layout, Schedule, Action, Compile };

    explicit DiagnosticsPanel(QWidget* parent = nullptr);

    // Replaces the rows of `source` with `diagnostics`.
    void setDiagnostics(Source source, const std::vector<Diagnostic>& diagnostics);
    void appendDiagnostics(Source source, const std::vector<Diagnostic>& diagnostics);
    // A closing "info" row, e.g. what was imported.
    void appendInfo(Source source, const QString& message, const QString& location);
    void clearSource(Source source);

    int count(Severity severity) const;
    // "Diagnostics", "Diagnostics (2 errors)", "Diagnostics (1 warning)".
    QString title() const;
    // What the empty list says in its middle.
    QString placeholderText() const { return m_placeholder; }

    // An import's diagnostics under Import. A model that loaded starts the list over and is
    // closed with what was imported (so an import without warnings still says so); a failed
    // import keeps the rest (the model on screen stays, and with it its schedule's).
    void showImport(const LoadResult& result);

  signals:
    void countsChanged();
    // A row naming a block (its id, from "B3") or an op (its name) was clicked.
    void blockActivated(int block);
    void opActivated(const QString& name);

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    QTreeWidgetItem* makeItem(Source source, const Diagnostic& diagnostic) const;
    void onItemClicked(QTreeWidgetItem* item);

    QString m_placeholder;
};

} // namespace strata::gui
