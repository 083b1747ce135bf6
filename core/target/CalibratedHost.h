#pragma once
// Where this computer's calibrated host target lives by default (`strata-cli calibrate` writes
// it there), and the resolve options that make `host` mean it (docs/CALIBRATION.md).

#include "target/TargetLoader.h"

#include <string>
#include <string_view>

namespace strata::target {

// Always the embedded `host` preset (probed, not calibrated), whatever file exists.
inline constexpr std::string_view kUncalibratedHost = "host-uncalibrated";

// $XDG_CONFIG_HOME/strata/host.calibrated.json, else $HOME/.config/strata/host.calibrated.json;
// "" when neither variable is set (or set empty).
std::string defaultCalibratedHostFile();

// Options for an interactive user: `host` resolves to defaultCalibratedHostFile() when it exists.
// (Tests and library callers that want the preset keep ResolveOptions{}.)
ResolveOptions userResolveOptions();

} // namespace strata::target
