#include "calibrate/ConcurrentSlowdownFit.h"

namespace strata::calibrate {

double fitConcurrentSlowdown(const std::vector<SlowdownSample>& samples,
                             const target::TransferPath& path) {
    if (!(path.bytesPerCycle > 0))
        return 1;
    std::vector<double> factors;
    for (const SlowdownSample& s : samples) {
        if (s.bytes < kConcurrentSlowdownMinBytes || !(s.aloneCycles > 0 && s.contendedCycles > 0))
            continue;
        const double fixed =
            path.fixedCyclesFor(target::ReadKind::Other, s.bytes) + s.rows * path.rowOverheadCycles;
        const double moving = s.bytes / path.bytesPerCycle;
        const double slowdown = s.contendedCycles / s.aloneCycles;
        factors.push_back((slowdown * (fixed + moving) - fixed) / moving);
    }
    if (factors.empty())
        return 1;
    const double factor = median(factors);
    return factor >= kConcurrentSlowdownMin ? factor : 1;
}

} // namespace strata::calibrate
