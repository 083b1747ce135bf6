#include "timeline/Viewport.h"

#include <algorithm>
#include <cmath>

namespace strata::timeline {

void Viewport::clampZoom() {
    if (!(widthPx > 0))
        widthPx = 1;
    const double maxPsPerPixel = kMaxSpanPs / widthPx;
    if (!std::isfinite(psPerPixel))
        psPerPixel = 1;
    psPerPixel = std::max(psPerPixel, kMinPsPerPixel);
    psPerPixel = std::min(psPerPixel, maxPsPerPixel);
}

void Viewport::zoomAbout(double anchorPx, double factor) {
    if (!(factor > 0) || !std::isfinite(factor))
        return;
    const double anchorPs = toPs(anchorPx);
    psPerPixel /= factor;
    clampZoom();
    startPs = anchorPs - anchorPx * psPerPixel;
}

void Viewport::pan(double dx) {
    if (std::isfinite(dx))
        startPs += dx * psPerPixel;
}

void Viewport::zoomToRange(double fromPs, double toPs) {
    if (toPs < fromPs)
        std::swap(fromPs, toPs);
    psPerPixel = (toPs - fromPs) / std::max(widthPx, 1.0);
    clampZoom();
    // Centre a range narrower than the minimum zoom.
    const double middle = (fromPs + toPs) / 2;
    startPs = std::min(fromPs, middle - psPerPixel * widthPx / 2);
}

void Viewport::fit(std::int64_t totalPs) {
    const double total = std::max<double>(static_cast<double>(totalPs), 1000.0);
    zoomToRange(0, total * 1.02);
    startPs = 0;
}

} // namespace strata::timeline
