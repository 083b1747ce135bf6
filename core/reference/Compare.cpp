#include "reference/Compare.h"

#include "reference/Kernels.h"

#include <cmath>
#include <cstring>

namespace strata::reference {

Closeness compare(const Tensor& actual, const Tensor& expected, double atol, double rtol) {
    Closeness c;
    if (actual.shape != expected.shape) {
        c.message = "shape " + ir::shapeToString(actual.shape) + ", expected " +
                    ir::shapeToString(expected.shape);
        return c;
    }
    const bool floating =
        kernels::isFloatType(actual.dtype) && kernels::isFloatType(expected.dtype);
    if (actual.dtype != expected.dtype && !floating) {
        c.message = "dtype " + std::string(ir::dtypeName(actual.dtype)) + ", expected " +
                    std::string(ir::dtypeName(expected.dtype));
        return c;
    }
    if (!floating)
        atol = rtol = 0;
    const std::int64_t n = expected.elements();
    double worstExcess = -1;
    for (std::int64_t i = 0; i < n; ++i) {
        const double a = actual.at(i), e = expected.at(i);
        bool within;
        double excess = 0;
        if (!floating) {
            // Bit for bit: int64 values beyond 2^53 must not compare through double.
            const std::size_t size = ir::dtypeSize(expected.dtype);
            within = std::memcmp(actual.bytes.data() + i * size, expected.bytes.data() + i * size,
                                 size) == 0;
            excess = within ? 0 : std::fabs(a - e);
            if (!within && excess > c.maxAbs)
                c.maxAbs = excess;
        } else if (std::isnan(a) || std::isnan(e)) {
            within = std::isnan(a) && std::isnan(e);
            excess = within ? 0 : INFINITY;
        } else if (std::isinf(a) || std::isinf(e)) {
            within = a == e;
            excess = within ? 0 : INFINITY;
        } else {
            const double diff = std::fabs(a - e);
            const double bound = atol + rtol * std::fabs(e);
            within = diff <= bound;
            excess = diff - bound;
            if (diff > c.maxAbs) {
                c.maxAbs = diff;
                if (worstExcess < 0)
                    c.worstIndex = std::size_t(i);
            }
            if (e != 0)
                c.maxRel = std::max(c.maxRel, diff / std::fabs(e));
        }
        if (!within) {
            ++c.mismatches;
            if (excess > worstExcess) {
                worstExcess = excess;
                c.worstIndex = std::size_t(i);
            }
        }
    }
    c.ok = c.mismatches == 0;
    if (!c.ok) {
        const auto w = std::int64_t(c.worstIndex);
        c.message = std::to_string(c.mismatches) + " of " + std::to_string(n) +
                    " elements differ; worst at " + std::to_string(w) + ": " +
                    std::to_string(actual.at(w)) + " vs expected " +
                    std::to_string(expected.at(w)) + " (max abs " + std::to_string(c.maxAbs) +
                    ", max rel " + std::to_string(c.maxRel) + ")";
    }
    return c;
}

} // namespace strata::reference
