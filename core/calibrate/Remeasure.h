#pragma once
// Re-measuring a path whose transfer fit is poor. One calibration in three on 2026-11-27 fitted
// the load path 4x off (RMS relative residual 0.76, docs/ACCURACY.md "A calibration 4x off")
// while calibrations minutes later fitted at 0.2-0.3: the machine's speed changed while it
// measured. Measuring that path's programs again, a bounded number of times within a time
// budget, and keeping the attempt that fits best, turns most such runs into good ones; the
// report says what was re-measured and how the residual moved.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace strata::calibrate {

struct RemeasureLimits {
    int maxRetries = 2;         // re-measures of one path at most
    double budgetSeconds = 5.0; // no re-measure that would end calibration after this
};

struct RemeasureOutcome {
    std::vector<double> rms; // RMS relative residual of each attempt, the first measurement first
    std::size_t best = 0;    // the attempt kept: the least residual
    int retries() const { return static_cast<int>(rms.size()) - 1; }
    // What was done, for the report ("re-measured 'load' once: RMS relative residual 76% ->
    // 24%"); empty when the first fit was not poor. `skipped` says why a poor fit was not
    // re-measured (the budget) or re-measured no further.
    std::string note;
    bool stillPoor = false; // the kept attempt's residual is above kPoorFitResidual
};

// While the kept attempt's residual is above kPoorFitResidual, and fewer than limits.maxRetries
// re-measures were made, and `elapsedSeconds` plus one re-measure's `retrySeconds` stays within
// limits.budgetSeconds: calls `remeasure` (measures the path again and fits it; its RMS relative
// residual, or nothing when it failed, which ends the retries). `elapsedSeconds` grows by
// `retrySeconds` per re-measure.
RemeasureOutcome remeasureWhilePoor(std::string_view path, double firstRms, double elapsedSeconds,
                                    double retrySeconds, const RemeasureLimits& limits,
                                    const std::function<std::optional<double>()>& remeasure);

} // namespace strata::calibrate
