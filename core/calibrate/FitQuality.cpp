#include "calibrate/FitQuality.h"

#include <fmt/format.h>

namespace strata::calibrate {

std::optional<std::string> poorFitWarning(std::string_view path, double rmsRelativeError) {
    if (!(rmsRelativeError > kPoorFitResidual))
        return std::nullopt;
    return fmt::format("the '{}' transfers fit their figures poorly (RMS relative residual "
                       "{:.0f}%, usually 20-30%): the machine's speed likely changed while "
                       "calibration measured, and every transfer on that path would be priced "
                       "off. Re-run `strata-cli calibrate`",
                       path, 100 * rmsRelativeError);
}

} // namespace strata::calibrate
