#pragma once
// The event lanes inside QCustomPlot: a plottable on the lanes' axis rect, so the lanes share the
// ruler's time axis, its clipping and its replots. It paints through a callback (the built frame
// lives in TimelineView); it holds no data of its own.

#include <qcustomplot.h>

#include <functional>

namespace strata::views::timeline {

class LanesPlottable : public QCPAbstractPlottable {
    Q_OBJECT

  public:
    using Paint = std::function<void(QPainter& painter, const QRectF& area)>;
    LanesPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis, Paint paint);

    double selectTest(const QPointF& pos, bool onlySelectable, QVariant* details = nullptr) const override;
    QCPRange getKeyRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth) const override;
    QCPRange getValueRange(bool& foundRange, QCP::SignDomain inSignDomain = QCP::sdBoth,
                           const QCPRange& inKeyRange = QCPRange()) const override;

  protected:
    void draw(QCPPainter* painter) override;
    void drawLegendIcon(QCPPainter* painter, const QRectF& rect) const override;

  private:
    Paint m_paint;
};

} // namespace strata::views::timeline
