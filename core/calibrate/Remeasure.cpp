#include "calibrate/Remeasure.h"

#include "calibrate/FitQuality.h"

#include <fmt/format.h>

namespace strata::calibrate {
namespace {

bool poor(double rms) {
    return rms > kPoorFitResidual;
}

std::string times(int n) {
    return n == 1 ? "once" : n == 2 ? "twice" : fmt::format("{} times", n);
}

} // namespace

RemeasureOutcome remeasureWhilePoor(std::string_view path, double firstRms, double elapsedSeconds,
                                    double retrySeconds, const RemeasureLimits& limits,
                                    const std::function<std::optional<double>()>& remeasure) {
    RemeasureOutcome out;
    out.rms.push_back(firstRms);
    if (!poor(firstRms))
        return out;
    std::string stopped;
    while (poor(out.rms[out.best])) {
        if (out.retries() >= limits.maxRetries) {
            stopped = fmt::format("no further: at most {} re-measures", limits.maxRetries);
            break;
        }
        if (elapsedSeconds + retrySeconds > limits.budgetSeconds) {
            stopped = fmt::format("{}: calibration would take {:.1f} s, over its {:.0f} s budget",
                                  out.retries() ? "no further" : "not re-measured",
                                  elapsedSeconds + retrySeconds, limits.budgetSeconds);
            break;
        }
        const std::optional<double> rms = remeasure();
        elapsedSeconds += retrySeconds;
        if (!rms) {
            stopped = "the re-measure failed";
            break;
        }
        out.rms.push_back(*rms);
        if (*rms < out.rms[out.best])
            out.best = out.rms.size() - 1;
    }
    out.stillPoor = poor(out.rms[out.best]);
    if (out.retries() == 0)
        out.note = fmt::format("'{}' transfers fit poorly (RMS relative residual {:.0f}%), {}",
                               path, 100 * firstRms, stopped);
    else {
        out.note = fmt::format("re-measured '{}' {}: RMS relative residual {:.0f}%", path,
                               times(out.retries()), 100 * firstRms);
        for (std::size_t i = 1; i < out.rms.size(); ++i)
            out.note += fmt::format(" -> {:.0f}%", 100 * out.rms[i]);
        out.note += fmt::format(", kept the {:.0f}% fit", 100 * out.rms[out.best]);
        if (!stopped.empty() && out.stillPoor)
            out.note += " (" + stopped + ")";
    }
    return out;
}

} // namespace strata::calibrate
