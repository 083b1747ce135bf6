#pragma once
// A path's own contention in the calibrated target: the `<path>_contention` resource that
// fitPathContention (Fit.h) measured, written into or removed from a target.

#include "calibrate/Fit.h"
#include "target/Target.h"

#include <string>

namespace strata::calibrate {

// Writes a path's own contention to `target`: with a fitted bandwidth, the resource
// `<path>_contention` (scope chip) listed by that path alone, added or updated; without one
// (or no such path), that resource removed and unlisted, so a recalibration that sees no
// contention leaves none from an earlier one.
void setPathContention(target::Target& target, const std::string& path,
                       const PathContentionFit& fit);

} // namespace strata::calibrate
