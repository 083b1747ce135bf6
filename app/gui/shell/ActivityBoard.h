#pragma once
// Where the window shows what its activities report (jobs/Activity.h), the same way for each:
// the status message in the status bar (elided to the room the permanent widgets leave, again
// whenever one of them changes size, the whole text as its tooltip), the diagnostics in the
// Diagnostics dock under the activity's source, the dock brought up as the activity's policy says,
// and the busy indicator while the job runner or any activity is busy (its tooltip names them).

#include "base/Diagnostic.h"
#include "panels/DiagnosticsPanel.h"

#include <QDeadlineTimer>
#include <QObject>
#include <vector>

class QDockWidget;
class QProgressBar;
class QStatusBar;
class QWidget;

namespace strata::gui {

class Activity;

class ActivityBoard : public QObject {
    Q_OBJECT

  public:
    // Whether an activity's report replaces what its source listed before or adds to it.
    enum class Listing { Replace, Append };
    // When a report brings the Diagnostics dock up.
    enum class Reveal { Never, OnErrors, Always };
    struct Policy {
        DiagnosticsPanel::Source source = DiagnosticsPanel::Source::Action;
        Listing listing = Listing::Replace;
        Reveal reveal = Reveal::Never;
    };

    // Adds the busy indicator to `bar`.
    ActivityBoard(QStatusBar* bar, DiagnosticsPanel* panel, QDockWidget* dock, QObject* parent);

    void add(Activity* activity, Policy policy);
    const std::vector<Activity*>& activities() const { return m_activities; }
    // A permanent widget of the status bar, at `index` (-1: last); its width is kept free of
    // status messages.
    void addPermanentWidget(QWidget* widget, int index = -1);

    QProgressBar* busyIndicator() const { return m_busy; }
    // The job runner or an activity is busy.
    bool isBusy() const;

  public slots:
    void showStatus(const QString& text, int timeoutMs);
    // Lists `diagnostics` (and `summary`, named `where`) under `policy`'s source.
    void showDiagnostics(const std::vector<strata::Diagnostic>& diagnostics, const QString& summary,
                         const QString& where, Policy policy);
    void showDiagnosticsDock();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    void updateBusy();
    // Shows the current message elided to the room left now, for the time it has left.
    void showElided();
    int messageRoom() const;

    QStatusBar* m_bar;
    DiagnosticsPanel* m_panel;
    QDockWidget* m_dock;
    QProgressBar* m_busy = nullptr;
    std::vector<Activity*> m_activities;
    std::vector<QWidget*> m_permanent;
    QString m_message;              // the whole current message
    QString m_shown;                // what the bar shows of it
    QDeadlineTimer m_messageExpiry; // forever when the message has no timeout
};

} // namespace strata::gui
