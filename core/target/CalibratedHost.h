#pragma once
// Where this computer's calibrated host target lives by default (`strata-cli calibrate` writes
// it there), whether it fits this machine (CPU model, core count, age), and the resolve options
// that make `host` mean it (docs/CALIBRATION.md).

#include "base/Diagnostic.h"
#include "target/HostProbe.h"
#include "target/Target.h"
#include "target/TargetLoader.h"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::target {

// Always the embedded `host` preset (probed, not calibrated), whatever file exists.
inline constexpr std::string_view kUncalibratedHost = "host-uncalibrated";

// A calibration older than this is still used, but offered again (machines get busier, kernels
// and Strata's runtime change).
inline constexpr int kCalibrationStaleDays = 30;

// $XDG_CONFIG_HOME/strata/host.calibrated.json, else $HOME/.config/strata/host.calibrated.json;
// "" when neither variable is set (or set empty).
std::string defaultCalibratedHostFile();

// Options for an interactive user: `host` resolves to defaultCalibratedHostFile() when it exists
// and was made on this machine. (Tests and library callers that want the preset keep
// ResolveOptions{}.)
ResolveOptions userResolveOptions();

enum class CalibrationState {
    Missing,      // no file (or no config directory to look in)
    Current,      // made on this CPU model and core count within kCalibrationStaleDays
    Stale,        // usable, but old or without a stamp (made before Strata recorded one)
    OtherMachine, // made on another CPU model or core count: not used
    Unreadable,   // exists but does not load (truncated, a bad figure)
};

struct HostCalibration {
    CalibrationState state = CalibrationState::Missing;
    std::string file;
    std::optional<Target> target;     // the calibrated target when Current or Stale
    std::string why;                  // Stale, OtherMachine: what differs, or how old it is
    std::vector<Diagnostic> problems; // Unreadable: the loader's errors; else its warnings

    bool usable() const { return target.has_value(); }
    // Missing, OtherMachine and Unreadable: `host` has no figures of this machine to use.
    bool needsCalibrating() const { return !usable(); }
};

// What `file` holds for `machine` at `now`. Never fails: a problem is a state with its reason.
HostCalibration
inspectHostCalibration(const std::string& file, const HostFacts& machine,
                       std::chrono::system_clock::time_point now = std::chrono::system_clock::now(),
                       int staleAfterDays = kCalibrationStaleDays);

// The stamp a calibration of `machine` made at `now` carries.
CalibrationStamp calibrationStampFor(const HostFacts& machine,
                                     std::chrono::system_clock::time_point now);

// "2026-11-26T06:14:35Z" and back (nullopt when `text` is not in that form).
std::string formatUtc(std::chrono::system_clock::time_point time);
std::optional<std::chrono::system_clock::time_point> parseUtc(std::string_view text);

// One line for a status bar or a note: "calibrated 2026-11-26 06:14 UTC on <cpu> (2 cores)",
// "calibrated (date unknown)", or "uncalibrated figures" for a target that is not calibrated.
std::string describeCalibration(const Target& target);
// The same without the machine ("calibrated 2026-11-26 06:14 UTC"): where space is short.
std::string describeCalibrationDate(const Target& target);

} // namespace strata::target
