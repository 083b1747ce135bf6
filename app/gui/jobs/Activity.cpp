#include "jobs/Activity.h"

namespace strata::gui {

Activity::Activity(QString name, QObject* parent) : QObject(parent), m_name(std::move(name)) {}

void Activity::setBusy(bool busy) {
    if (busy == m_busy)
        return;
    m_busy = busy;
    emit busyChanged(busy);
}

void Activity::showStatus(const QString& text, int timeoutMs) {
    m_status = text;
    emit statusChanged(text, timeoutMs);
}

void Activity::report(std::vector<Diagnostic> diagnostics, const QString& summary) {
    m_diagnostics = std::move(diagnostics);
    m_summary = summary;
    emit reported(m_diagnostics, m_summary);
}

} // namespace strata::gui
