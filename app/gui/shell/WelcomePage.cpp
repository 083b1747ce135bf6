#include "shell/WelcomePage.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace strata::gui {

WelcomePage::WelcomePage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("placeholder"));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(40, 40, 40, 40);

    // A dashed drop zone, as file-drop targets usually look.
    auto* zone = new QFrame;
    zone->setObjectName(QStringLiteral("dropZone"));
    zone->setStyleSheet(QStringLiteral("QFrame#dropZone { border: 2px dashed palette(mid); "
                                       "border-radius: 14px; }"));
    auto* layout = new QVBoxLayout(zone);
    layout->setSpacing(14);
    layout->addStretch(1);

    auto* title = new QLabel(tr("Open an ONNX model (Ctrl+O) or drop it here"));
    title->setObjectName(QStringLiteral("placeholderText"));
    title->setAlignment(Qt::AlignCenter);
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.6);
    title->setFont(titleFont);
    QPalette dim = title->palette();
    dim.setColor(QPalette::WindowText, dim.color(QPalette::PlaceholderText));
    title->setPalette(dim);
    layout->addWidget(title);

    auto* hint = new QLabel(tr("Strata shows the model's ops with their shapes, FLOPs and memory "
                               "traffic, and schedules them into fusion blocks for the target "
                               "chosen above."));
    hint->setAlignment(Qt::AlignCenter);
    hint->setPalette(dim);
    layout->addWidget(hint);

    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("placeholderError"));
    m_error->setAlignment(Qt::AlignCenter);
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->hide();
    layout->addWidget(m_error);

    auto* button = new QPushButton(tr("Open Model…"));
    button->setObjectName(QStringLiteral("placeholderOpen"));
    connect(button, &QPushButton::clicked, this, &WelcomePage::openRequested);
    auto* buttonRow = new QHBoxLayout;
    buttonRow->addStretch(1);
    buttonRow->addWidget(button);
    buttonRow->addStretch(1);
    layout->addLayout(buttonRow);
    layout->addStretch(1);

    outer->addWidget(zone);
}

void WelcomePage::showError(const QString& fileName, const QString& reason) {
    m_error->setText(tr("<b style=\"color:#c62828\">Could not open %1</b><br>%2")
                         .arg(fileName.toHtmlEscaped(), reason.toHtmlEscaped()));
    m_error->show();
}

void WelcomePage::clearError() {
    m_error->hide();
}

} // namespace strata::gui
