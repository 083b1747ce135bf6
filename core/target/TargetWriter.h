#pragma once
// Writing a target back to the JSON format of docs/TARGETS.md (calibration writes
// host.calibrated.json this way). parseTarget(targetToJson(t)) gives t back, except `source`.

#include "target/Target.h"

#include <string>

namespace strata::target {

// The description as indented JSON with a trailing newline. Never writes "detect_host": the
// figures written are the final ones, probed or not.
std::string targetToJson(const Target& target);

} // namespace strata::target
