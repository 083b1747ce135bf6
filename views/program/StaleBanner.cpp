#include "views/program/StaleBanner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace strata::views::program {

StaleBanner::StaleBanner(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("staleBanner"));
    setAutoFillBackground(true);
    QPalette warn = palette();
    warn.setColor(QPalette::Window, QColor(0xFF, 0xF3, 0xCD));
    warn.setColor(QPalette::WindowText, QColor(0x66, 0x4D, 0x03));
    setPalette(warn);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(8, 2, 8, 2);
    row->addWidget(new QLabel(tr("Out of date: the schedule changed since this compile.")), 1);
    m_button = new QToolButton;
    m_button->hide();
    row->addWidget(m_button);
    hide();
}

void StaleBanner::setAction(QAction* action) {
    m_button->setDefaultAction(action);
    m_button->setVisible(action != nullptr);
}

} // namespace strata::views::program
