#pragma once
// Whether a calibration's transfer fit is too poor to trust. A path's samples normally fit its
// figures to an RMS relative residual of 0.2-0.3; one calibration on an otherwise quiet machine
// came out at 0.76 with a load latency 4x the others' (docs/ACCURACY.md, "A calibration 4x
// off"). Such a fit prices every transfer of that path wrongly, so the user is told to re-run.
// Judged on the residual over the shapes' medians (TransferFit::shapeRmsRelativeError): the
// scatter of one shape's repeats is not the figures' fault and a re-measure does not remove it.

#include <optional>
#include <string>
#include <string_view>

namespace strata::calibrate {

// Above this RMS relative residual a path's fit is reported as poor.
inline constexpr double kPoorFitResidual = 0.5;

// The warning for path `path` whose fit left `rmsRelativeError`, or nothing when it is fine.
std::optional<std::string> poorFitWarning(std::string_view path, double rmsRelativeError);

} // namespace strata::calibrate
