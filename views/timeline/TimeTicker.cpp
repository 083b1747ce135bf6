#include "views/timeline/TimeTicker.h"

#include "views/timeline/TimeFormat.h"

namespace strata::views::timeline {

double TimeTicker::getTickStep(const QCPRange& range) {
    // Round steps in the displayed unit: cycles, or picoseconds (round in every larger unit too).
    const double perPs = showsCycles() ? m_clockHz * 1e-12 : 1;
    const double step = QCPAxisTicker::getTickStep(QCPRange(range.lower * perPs, range.upper * perPs));
    m_stepPs = step / perPs;
    return m_stepPs;
}

QString TimeTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    if (showsCycles()) {
        const double cycles = tick * m_clockHz * 1e-12;
        const double step = m_stepPs * m_clockHz * 1e-12;
        if (step >= 1e6)
            return QString::number(cycles / 1e6, 'f', step >= 1e7 ? 0 : 1) + QStringLiteral(" Mcyc");
        if (step >= 1e3)
            return QString::number(cycles / 1e3, 'f', step >= 1e4 ? 0 : 1) + QStringLiteral(" kcyc");
        return QString::number(cycles, 'f', 0) + QStringLiteral(" cyc");
    }
    return formatTick(tick, m_stepPs, unitForStep(m_stepPs));
}

} // namespace strata::views::timeline
