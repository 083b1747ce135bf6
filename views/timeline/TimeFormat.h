#pragma once
// Times as the timeline writes them: "850 ps", "12.5 ns", "1.23 ms", "4.1 s" (three significant
// digits), and the unit a ruler with ticks `stepPs` apart labels in. Locale-independent.

#include <QString>
#include <cstdint>

namespace strata::views::timeline {

QString formatDuration(double ps);

struct TimeUnit {
    double ps = 1;          // picoseconds per unit
    const char* suffix = "ps";
};
// The largest unit in which a tick step of `stepPs` is at least 0.1 (ps up to s).
TimeUnit unitForStep(double stepPs);
// `ps` in `unit` with as many decimals as `stepPs` needs to tell ticks apart: "1.25 ms".
QString formatTick(double ps, double stepPs, const TimeUnit& unit);

} // namespace strata::views::timeline
