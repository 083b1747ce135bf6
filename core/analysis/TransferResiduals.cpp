#include "analysis/TransferResiduals.h"

#include <cmath>
#include <cstddef>

namespace strata::analysis {

double rmsRelativeResidual(const std::vector<SizedDuration>& samples, const LinearTransferModel& model) {
    double sum = 0;
    std::size_t n = 0;
    for (const SizedDuration& s : samples) {
        if (s.cycles <= 0) continue;
        const double r = (model.cycles(s.bytes, s.rows) - s.cycles) / s.cycles;
        sum += r * r;
        ++n;
    }
    return n ? std::sqrt(sum / double(n)) : 0;
}

} // namespace strata::analysis
