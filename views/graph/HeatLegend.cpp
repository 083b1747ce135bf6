#include "views/graph/HeatLegend.h"

#include "views/graph/HeatScale.h"

#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>

namespace strata::views::graph {

namespace {
constexpr int kPadding = 10;
constexpr int kBarWidth = 180;
constexpr int kBarHeight = 10;
} // namespace

HeatLegend::HeatLegend(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
}

void HeatLegend::setScale(const QString& title, const QString& low, const QString& high) {
    m_title = title;
    m_low = low;
    m_high = high;
    m_note.clear();
    adjustSize();
    update();
}

void HeatLegend::setNote(const QString& title, const QString& note) {
    m_title = title;
    m_note = note;
    m_low.clear();
    m_high.clear();
    adjustSize();
    update();
}

QSize HeatLegend::sizeHint() const {
    const QFontMetrics fm = fontMetrics();
    const int line = fm.height();
    const int width = std::max({kBarWidth, fm.horizontalAdvance(m_title),
                                fm.horizontalAdvance(m_note)}) +
                      2 * kPadding;
    const int height = m_note.isEmpty() ? kPadding + line + 4 + kBarHeight + 3 + line + kPadding
                                        : kPadding + 2 * line + 4 + kPadding;
    return {width, height};
}

void HeatLegend::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    QPainterPath frame;
    frame.addRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    painter.fillPath(frame, QColor(255, 255, 255, 235));
    painter.setPen(QColor(0, 0, 0, 40));
    painter.drawPath(frame);

    const QFontMetrics fm = fontMetrics();
    const int line = fm.height();
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(QColor(0x20, 0x24, 0x2a));
    painter.drawText(QRect(kPadding, kPadding, width() - 2 * kPadding, line),
                     Qt::AlignLeft | Qt::AlignVCenter, m_title);
    painter.setFont(font());
    const int top = kPadding + line + 4;
    if (!m_note.isEmpty()) {
        painter.setPen(QColor(0x5f, 0x66, 0x70));
        painter.drawText(QRect(kPadding, top, width() - 2 * kPadding, line),
                         Qt::AlignLeft | Qt::AlignVCenter, m_note);
        return;
    }
    const QRect bar(kPadding, top, width() - 2 * kPadding, kBarHeight);
    QLinearGradient gradient(bar.topLeft(), bar.topRight());
    for (int i = 0; i <= 10; ++i)
        gradient.setColorAt(i / 10.0, heatColor(i / 10.0));
    painter.setPen(QColor(0, 0, 0, 60));
    painter.setBrush(gradient);
    painter.drawRect(bar);
    painter.setPen(QColor(0x3c, 0x42, 0x4a));
    const QRect labels(kPadding, bar.bottom() + 3, bar.width(), line);
    painter.drawText(labels, Qt::AlignLeft | Qt::AlignVCenter, m_low);
    painter.drawText(labels, Qt::AlignRight | Qt::AlignVCenter, m_high);
}

} // namespace strata::views::graph
