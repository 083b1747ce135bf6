#pragma once
// What one activity of the window (a controller: compile, emulate, run, export, calibrate, a
// project; or a tab or dialog with work of its own: layout, traces, transfers, compare, search)
// tells the user: whether it is busy, a status message, and diagnostics with a closing summary.
// Each owns one and reports through it; the window iterates them (shell/ActivityBoard) and
// shows every activity's status and diagnostics the same way, instead of wiring each by hand.

#include "base/Diagnostic.h"

#include <QObject>
#include <QString>
#include <vector>

namespace strata::gui {

class Activity : public QObject {
    Q_OBJECT

  public:
    // `name` says where a summary comes from in the Diagnostics dock ("compile", "run").
    explicit Activity(QString name, QObject* parent = nullptr);

    const QString& name() const { return m_name; }
    bool isBusy() const { return m_busy; }
    // The last status message (empty before the first).
    const QString& status() const { return m_status; }
    // The last diagnostics reported and their summary.
    const std::vector<Diagnostic>& diagnostics() const { return m_diagnostics; }
    const QString& summary() const { return m_summary; }

    void setBusy(bool busy);
    // A message for the status bar, for `timeoutMs` (0: until the next).
    void showStatus(const QString& text, int timeoutMs = 0);
    // Diagnostics to list, closed by `summary` when it is not empty.
    void report(std::vector<Diagnostic> diagnostics, const QString& summary = {});

  signals:
    void busyChanged(bool busy);
    void statusChanged(const QString& text, int timeoutMs);
    void reported(const std::vector<strata::Diagnostic>& diagnostics, const QString& summary);

  private:
    QString m_name;
    bool m_busy = false;
    QString m_status;
    std::vector<Diagnostic> m_diagnostics;
    QString m_summary;
};

} // namespace strata::gui
