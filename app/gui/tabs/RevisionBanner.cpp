#include "tabs/RevisionBanner.h"

#include "document/ScheduleDocument.h"

namespace strata::gui {

RevisionBanner::RevisionBanner(const ScheduleDocument* document, QWidget* parent)
    : QLabel(parent), m_document(document) {
    setObjectName(QStringLiteral("revisionBanner"));
    setWordWrap(true);
    setContentsMargins(8, 4, 8, 4);
    setStyleSheet(QStringLiteral("QLabel { background: #fff4d6; color: #5c4400; }"));
    connect(document, &ScheduleDocument::revisionChanged, this, &RevisionBanner::update);
    hide();
}

void RevisionBanner::setShown(RevisionPtr shown, const QString& what, const QString& hint) {
    m_shown = std::move(shown);
    m_what = what;
    m_hint = hint;
    update();
}

bool RevisionBanner::isStale() const {
    return m_shown && m_shown->number != 0 && !m_document->isCurrent(m_shown);
}

void RevisionBanner::update() {
    if (!isStale()) {
        hide();
        return;
    }
    // After an undo, what is shown may be of a later revision than the current one.
    const std::uint64_t now = m_document->revision()->number;
    QString text = (m_shown->number < now
                        ? tr("%1 is of an earlier schedule (revision %2; the schedule is now "
                             "revision %3).")
                        : tr("%1 is of another schedule (revision %2; the schedule is now "
                             "revision %3)."))
                       .arg(m_what)
                       .arg(m_shown->number)
                       .arg(now);
    if (!m_hint.isEmpty())
        text += QLatin1Char(' ') + m_hint;
    setText(text);
    show();
}

} // namespace strata::gui
