#pragma once
// A strip over a tab's content that says when what the tab shows was made from an earlier
// revision than the document's current one, by the one rule every tab and controller uses
// (ScheduleDocument::isCurrent); hidden while it is current or nothing is shown.

#include "document/Revision.h"

#include <QLabel>

namespace strata::gui {

class ScheduleDocument;

class RevisionBanner : public QLabel {
    Q_OBJECT

  public:
    explicit RevisionBanner(const ScheduleDocument* document, QWidget* parent = nullptr);

    // What the tab shows is made from `shown` (null: nothing of the document's); `what` names
    // it ("The run on host") and `hint` says what makes it current again.
    void setShown(RevisionPtr shown, const QString& what, const QString& hint = {});
    // Shows something of another revision than the current one.
    bool isStale() const;

  private:
    void update();

    const ScheduleDocument* m_document;
    RevisionPtr m_shown;
    QString m_what;
    QString m_hint;
};

} // namespace strata::gui
