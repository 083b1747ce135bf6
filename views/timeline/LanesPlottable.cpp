#include "views/timeline/LanesPlottable.h"

namespace strata::views::timeline {

LanesPlottable::LanesPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis, Paint paint)
    : QCPAbstractPlottable(keyAxis, valueAxis), m_paint(std::move(paint)) {
    setSelectable(QCP::stNone);
}

double LanesPlottable::selectTest(const QPointF&, bool, QVariant*) const {
    return -1; // hover and clicks are the view's (it knows the frame)
}

QCPRange LanesPlottable::getKeyRange(bool& foundRange, QCP::SignDomain) const {
    foundRange = false;
    return {};
}

QCPRange LanesPlottable::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const {
    foundRange = false;
    return {};
}

void LanesPlottable::draw(QCPPainter* painter) {
    if (m_paint && mKeyAxis)
        m_paint(*painter, mKeyAxis->axisRect()->rect());
}

void LanesPlottable::drawLegendIcon(QCPPainter*, const QRectF&) const {}

} // namespace strata::views::timeline
