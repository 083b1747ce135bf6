#pragma once
// The timeline's ruler: QCustomPlot ticks at round times in the unit the zoom calls for (ns,
// µs, ms) or, with a clock, at round cycle counts. Axis coordinates are picoseconds.

#include <qcustomplot.h>

namespace strata::views::timeline {

class TimeTicker : public QCPAxisTicker {
  public:
    // Cycles at `clockHz` instead of times; 0 switches back to times.
    void setCycles(double clockHz) { m_clockHz = clockHz; }
    bool showsCycles() const { return m_clockHz > 0; }

  protected:
    double getTickStep(const QCPRange& range) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

  private:
    double m_clockHz = 0;
    double m_stepPs = 1;
};

} // namespace strata::views::timeline
