#include "views/timeline/TimeFormat.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace strata::views::timeline {

namespace {

constexpr std::array<TimeUnit, 5> kUnits = {{{1, "ps"}, {1e3, "ns"}, {1e6, "\u00b5s"}, {1e9, "ms"}, {1e12, "s"}}};

} // namespace

QString formatDuration(double ps) {
    const double magnitude = std::abs(ps);
    TimeUnit unit = kUnits.front();
    for (const TimeUnit& u : kUnits)
        if (magnitude >= u.ps * 0.9995)
            unit = u;
    const double value = ps / unit.ps;
    const double abs = std::abs(value);
    const int decimals = abs >= 99.95 ? 0 : abs >= 9.995 ? 1 : 2;
    QString text = QString::number(value, 'f', unit.ps == 1 ? 0 : decimals);
    return text + QLatin1Char(' ') + QString::fromUtf8(unit.suffix);
}

TimeUnit unitForStep(double stepPs) {
    TimeUnit unit = kUnits.front();
    for (const TimeUnit& u : kUnits)
        if (stepPs >= 0.1 * u.ps * 0.9995) // "1.2 µs" reads better than "1200 ns"
            unit = u;
    return unit;
}

QString formatTick(double ps, double stepPs, const TimeUnit& unit) {
    const double step = stepPs / unit.ps;
    // As many decimals as the step has (0.25 -> 2), so adjacent ticks read differently.
    int decimals = 0;
    for (double scaled = step; decimals < 6 && std::abs(scaled - std::round(scaled)) > 1e-6 * std::max(scaled, 1.0);
         scaled *= 10)
        ++decimals;
    double value = ps / unit.ps;
    if (std::abs(value) < step * 1e-6)
        value = 0; // no "-0"
    return QString::number(value, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(unit.suffix);
}

} // namespace strata::views::timeline
