#pragma once
// A calibration against the one it replaces: on the same machine, transfer figures several
// times apart mean one of the two was measured while the machine's copies ran slowed. For
// minutes at a time the host these were written on ran its strided copies 3-4x slower per row;
// calibrations in such a spell fitted 24-28 cycles per row against 5-8, and the models measured
// after one were predicted far too slow (docs/ACCURACY.md, "Calibration in two modes").

#include "target/Target.h"

#include <string>
#include <vector>

namespace strata::calibrate {

// Row costs this far apart (either way) are told; bandwidths kBandwidthApart.
inline constexpr double kRowCostApart = 2.0;
inline constexpr double kBandwidthApart = 1.5;

// Warnings for the paths of `now` whose row cost or bandwidth is that far from `previous`'s,
// when both were calibrated on the same CPU model and core count (else none: another machine's
// figures differ for good reasons).
std::vector<std::string> changesSincePrevious(const target::Target& previous,
                                              const target::Target& now);

} // namespace strata::calibrate
