#pragma once
// Before/after residuals of a transfer path's timing model (the Transfers tab's calibration view,
// docs/TRANSFERS.md): a path predicts latency + rows x row overhead + bytes / bandwidth cycles
// (rows: the contiguous runs a strided copy moves); measured samples give
// the relative residual (predicted - measured) / measured of each size, as calibrate/Fit.h counts
// them, for the target before calibration and for the fitted one.

#include <algorithm>
#include <vector>

namespace strata::analysis {

struct SizedDuration {
    double bytes = 0;
    double cycles = 0;              // measured
    double rows = 1;                // contiguous rows copied
};

struct LinearTransferModel {
    double latencyCycles = 0;
    double bytesPerCycle = 0;       // 0: no bandwidth term (the latency only)
    double rowOverheadCycles = 0;   // per contiguous row
    // A ramp (target::Ramp): the first rampBytes at rampBytesPerCycle; 0: none.
    double rampBytes = 0;
    double rampBytesPerCycle = 0;
    double cycles(double bytes, double rows = 1) const {
        const double ramped = rampBytes > 0 && rampBytesPerCycle > 0 && bytesPerCycle > 0
                                  ? std::min(bytes, rampBytes)
                                  : 0;
        return latencyCycles + rows * rowOverheadCycles +
               (bytesPerCycle > 0 ? bytes / bytesPerCycle : 0) +
               (ramped > 0 ? ramped / rampBytesPerCycle - ramped / bytesPerCycle : 0);
    }
};

// Root mean square of the relative residuals over samples with a measured duration above 0;
// 0 without any.
double rmsRelativeResidual(const std::vector<SizedDuration>& samples, const LinearTransferModel& model);

} // namespace strata::analysis
