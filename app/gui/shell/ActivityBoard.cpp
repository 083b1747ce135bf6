#include "shell/ActivityBoard.h"

#include "jobs/Activity.h"
#include "jobs/JobRunner.h"

#include <QDockWidget>
#include <QEvent>
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
    bar->installEventFilter(this); // a narrower window leaves less room
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
    // A label whose text grows after a message was elided would cut the message off mid-word.
    widget->installEventFilter(this);
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
    m_message = text;
    m_messageExpiry = timeoutMs > 0 ? QDeadlineTimer(timeoutMs) : QDeadlineTimer::Forever;
    showElided();
}

int ActivityBoard::messageRoom() const {
    // The bar's margins and the spacing beside each permanent widget; a widget whose text just
    // changed is not laid out yet, so its size hint counts when wider.
    int room = m_bar->width() - 24;
    for (const QWidget* widget : m_permanent)
        if (!widget->isHidden())
            room -= std::max(widget->width(), widget->sizeHint().width()) + 8;
    return std::max(room, 80);
}

void ActivityBoard::showElided() {
    m_shown = m_bar->fontMetrics().elidedText(m_message, Qt::ElideRight, messageRoom());
    m_bar->setToolTip(m_shown == m_message ? QString() : m_message);
    const qint64 left = m_messageExpiry.remainingTime(); // -1: forever
    m_bar->showMessage(m_shown, left < 0 ? 0 : static_cast<int>(std::max<qint64>(left, 1)));
}

bool ActivityBoard::eventFilter(QObject* watched, QEvent* event) {
    const auto type = event->type();
    if ((type == QEvent::Resize || type == QEvent::Show || type == QEvent::Hide) &&
        !m_message.isEmpty() && m_bar->currentMessage() == m_shown && !m_messageExpiry.hasExpired())
        showElided();
    return QObject::eventFilter(watched, event);
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
