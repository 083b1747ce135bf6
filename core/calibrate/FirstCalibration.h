#pragma once
// The first prediction on `host` is calibrated (docs/CALIBRATION.md): when the calibrated host
// file holds nothing this machine can use (missing, made on another CPU, unreadable), measure
// this computer and write it there before predicting. The CLI's predicting commands and the
// app's start-up job both call this; neither re-implements it.

#include "base/Diagnostic.h"
#include "calibrate/Calibrate.h"
#include "target/CalibratedHost.h"

#include <functional>
#include <string>
#include <vector>

namespace strata::calibrate {

struct FirstCalibration {
    target::HostCalibration found; // what `file` held before
    bool measured = false;         // calibrated now
    bool saved = false;            // and written to `file`
    std::vector<Diagnostic>
        diagnostics; // warnings: why it was redone, a failed measurement or save
};

// The message said before measuring: "calibrating this machine's host target (first use, ~2 s);
// saved to FILE" (or the reason it is redone instead of "first use").
std::string firstCalibrationMessage(const target::HostCalibration& found);

// When `file` holds no calibration usable here (HostCalibration::needsCalibrating), calls
// `announce` with firstCalibrationMessage(), measures this computer from the `host` preset
// (calibrateHost with `options`) and writes the target to `file`, creating its folder. Does
// nothing else when the calibration is usable (Current or Stale) or `file` is "". Never fails:
// a measurement or write that fails is a warning, and `host` then stays the uncalibrated preset.
FirstCalibration ensureHostCalibrated(const std::string& file, const CalibrateOptions& options = {},
                                      const std::function<void(const std::string&)>& announce = {});

// Recalibrate Host: measures this computer and writes `file` whatever it holds (a stale
// calibration, or one the user wants redone); `found` says what it replaced. Never fails, as above.
FirstCalibration recalibrateHost(const std::string& file, const CalibrateOptions& options = {});

} // namespace strata::calibrate
