#include "calibrate/PreviousCalibration.h"

#include <algorithm>
#include <fmt/format.h>

namespace strata::calibrate {
namespace {

// How many times apart two positive figures are (>= 1); 1 when either is not positive.
double apart(double a, double b) {
    return a > 0 && b > 0 ? std::max(a, b) / std::min(a, b) : 1;
}

} // namespace

std::vector<std::string> changesSincePrevious(const target::Target& previous,
                                              const target::Target& now) {
    std::vector<std::string> out;
    if (!previous.calibrated || !previous.calibration || !now.calibration ||
        previous.calibration->cpuModel != now.calibration->cpuModel ||
        previous.calibration->cores != now.calibration->cores)
        return out;
    for (const target::TransferPath& path : now.paths) {
        const target::TransferPath* before = previous.findPath(path.name);
        if (!before)
            continue;
        std::string what;
        if (apart(path.rowOverheadCycles, before->rowOverheadCycles) >= kRowCostApart)
            what = fmt::format("each row costs {:.1f} cycles against {:.1f}",
                               path.rowOverheadCycles, before->rowOverheadCycles);
        else if (apart(path.bytesPerCycle, before->bytesPerCycle) >= kBandwidthApart)
            what = fmt::format("its bandwidth is {:.1f} bytes/cycle against {:.1f}",
                               path.bytesPerCycle, before->bytesPerCycle);
        else
            continue;
        out.push_back(fmt::format(
            "the '{}' path changed since the previous calibration ({}): {}. On the same "
            "machine that means one of the two was measured while its copies ran slowed (other "
            "virtual machines, memory compaction): calibrate again in a few minutes; the "
            "calibration whose copies ran faster is the one to keep",
            path.name, previous.calibration->calibratedAt, what));
    }
    return out;
}

} // namespace strata::calibrate
