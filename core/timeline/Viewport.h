#pragma once
// The time<->pixel mapping of a timeline (hotspot's TimeLineData, Tracy's zoom): which time the
// left edge shows and how many picoseconds one pixel spans. Pure arithmetic, no Qt, so every
// zoom and pan is unit-tested. Pixel 0 is the left edge of the event area.

#include <cstdint>

namespace strata::timeline {

struct Viewport {
    double startPs = 0;     // time at pixel 0 (fractional: zooming keeps sub-picosecond offsets)
    double psPerPixel = 1;  // > 0
    double widthPx = 1;     // the event area's width

    // The narrowest and widest zoom: a tenth of a picosecond per pixel (one event never needs
    // more) and a day across the view (anything wider is a bug in the caller's times).
    static constexpr double kMinPsPerPixel = 0.1;
    static constexpr double kMaxSpanPs = 86'400e12;

    double endPs() const { return startPs + psPerPixel * widthPx; }
    double toPixel(double ps) const { return (ps - startPs) / psPerPixel; }
    double toPs(double px) const { return startPs + px * psPerPixel; }

    // Scales by `factor` (> 1 zooms in) keeping the time under pixel `anchorPx` where it is.
    void zoomAbout(double anchorPx, double factor);
    // Moves the view by `dx` pixels: positive shows later times.
    void pan(double dx);
    // Shows [fromPs, toPs] across the width (a zero-length range is widened to the minimum zoom).
    void zoomToRange(double fromPs, double toPs);
    // Shows [0, totalPs] with a small margin on the right.
    void fit(std::int64_t totalPs);

  private:
    void clampZoom();
};

} // namespace strata::timeline
