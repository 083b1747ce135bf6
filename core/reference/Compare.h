#pragma once
// Comparing a computed tensor with an expected one, as numpy.allclose does.

#include "reference/Tensor.h"

#include <cstddef>
#include <string>

namespace strata::reference {

struct Closeness {
    double maxAbs = 0;          // largest |actual - expected| over finite pairs
    double maxRel = 0;          // largest |actual - expected| / |expected| (expected != 0)
    std::size_t worstIndex = 0; // element furthest outside the tolerance (or with maxAbs)
    std::size_t mismatches = 0; // elements outside the tolerance
    bool ok = false;            // same dtype class, shape, and every element within tolerance
    std::string message;        // why not ok: shape, dtype, or the worst element
};

// Elementwise |actual - expected| <= atol + rtol * |expected| (numpy.allclose). NaN matches
// only NaN; an infinity matches only the same infinity. Integral and bool tensors compare
// exactly whatever the tolerances. Shapes must be equal; dtypes must be equal, except that
// floating dtypes compare with each other by value.
Closeness compare(const Tensor& actual, const Tensor& expected, double atol, double rtol);

} // namespace strata::reference
