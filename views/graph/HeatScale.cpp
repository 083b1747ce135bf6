#include "views/graph/HeatScale.h"

#include <QObject>
#include <algorithm>
#include <array>
#include <cmath>

namespace strata::views::graph {

QString heatModeName(HeatMode mode) {
    switch (mode) {
    case HeatMode::Off:
        return QObject::tr("Block colours");
    case HeatMode::PredictedTime:
        return QObject::tr("Predicted time");
    case HeatMode::DramBytes:
        return QObject::tr("DRAM bytes");
    case HeatMode::PredictionError:
        return QObject::tr("Prediction error");
    }
    return {};
}

QColor heatColor(double t) {
    // ColorBrewer YlOrRd, 6 classes, interpolated in RGB.
    static constexpr std::array<QRgb, 6> kStops = {0xffffb2, 0xfed976, 0xfeb24c,
                                                   0xfd8d3c, 0xf03b20, 0xbd0026};
    if (!std::isfinite(t))
        t = 0;
    t = std::clamp(t, 0.0, 1.0) * (kStops.size() - 1);
    const std::size_t i = std::min<std::size_t>(static_cast<std::size_t>(t), kStops.size() - 2);
    const double f = t - static_cast<double>(i);
    const QColor a(kStops[i]);
    const QColor b(kStops[i + 1]);
    auto mix = [f](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * f)); };
    return QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
}

} // namespace strata::views::graph
