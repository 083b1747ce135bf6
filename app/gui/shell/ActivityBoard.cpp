#include "shell/ActivityBoard.h"

#include "jobs/Activity.h"
#include "jobs/JobRunner.h"

#include <QDockWidget>
#include <QProgressBar>
#include <QStatusBar>
#include <algorithm>

namespace strata::gui {

ActivityBoard::ActivityBoard(QStatusBar* bar, DiagnosticsPanel* panel, QDockWidget* dock,
                             QObject* parent)
    : QObject(parent), m_bar(bar), m_panel(panel), m_dock(dock) {
    m_busy = new QProgressBar;
    m_busy->setObjectName(QStringLiteral("busyIndicator"));
    m_busy->setRange(0, 0); // indeterminate: most jobs report no fraction
    m_busy->setMaximumWidth(140);
    m_busy->setMaximumHeight(bar->fontMetrics().height() + 2);
    m_busy->setTextVisible(false);
    m_busy->hide();
    addPermanentWidget(m_busy);
    // Every background job goes through the runner: its busy state is the window's.
    connect(&JobRunner::instance(), &JobRunner::busyChanged, this, &ActivityBoard::updateBusy);
}

void ActivityBoard::add(Activity* activity, Policy policy) {
    m_activities.push_back(activity);
    connect(activity, &Activity::statusChanged, this, &ActivityBoard::showStatus);
    connect(activity, &Activity::busyChanged, this, &ActivityBoard::updateBusy);
    connect(activity, &Activity::reported, this,
            [this, activity, policy](const std::vector<Diagnostic>& diagnostics,
                                     const QString& summary) {
                showDiagnostics(diagnostics, summary, activity->name(), policy);
            });
    connect(activity, &QObject::destroyed, this, [this, activity] {
        m_activities.erase(std::remove(m_activities.begin(), m_activities.end(), activity),
                           m_activities.end());
    });
}

void ActivityBoard::addPermanentWidget(QWidget* widget, int index) {
    if (index < 0)
        m_bar->addPermanentWidget(widget);
    else
        m_bar->insertPermanentWidget(index, widget);
    m_permanent.push_back(widget);
}

bool ActivityBoard::isBusy() const {
    return JobRunner::instance().isBusy() ||
           std::any_of(m_activities.begin(), m_activities.end(),
                       [](const Activity* a) { return a->isBusy(); });
}

void ActivityBoard::updateBusy() {
    QStringList busy;
    for (const Activity* activity : m_activities)
        if (activity->isBusy())
            busy << activity->name();
    m_busy->setToolTip(busy.join(QStringLiteral(", ")));
    m_busy->setVisible(isBusy());
}

void ActivityBoard::showStatus(const QString& text, int timeoutMs) {
    // Elided to the room the permanent widgets leave; the whole text is the tooltip.
    int room = m_bar->width() - 60;
    for (const QWidget* widget : m_permanent)
        if (widget->isVisible())
            room -= widget->width();
    const QString shown =
        m_bar->fontMetrics().elidedText(text, Qt::ElideRight, std::max(room, 200));
    m_bar->setToolTip(shown == text ? QString() : text);
    m_bar->showMessage(shown, timeoutMs);
}

void ActivityBoard::showDiagnostics(const std::vector<Diagnostic>& diagnostics,
                                    const QString& summary, const QString& where, Policy policy) {
    if (policy.listing == Listing::Replace)
        m_panel->setDiagnostics(policy.source, diagnostics);
    else
        m_panel->appendDiagnostics(policy.source, diagnostics);
    if (!summary.isEmpty())
        m_panel->appendInfo(policy.source, summary, where);
    if (policy.reveal == Reveal::Always ||
        (policy.reveal == Reveal::OnErrors && hasErrors(diagnostics)))
        showDiagnosticsDock();
}

void ActivityBoard::showDiagnosticsDock() {
    m_dock->show();
    m_dock->raise();
}

} // namespace strata::gui
