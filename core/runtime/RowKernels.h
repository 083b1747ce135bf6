#pragma once
// Softmax and layer normalization over rows that lie contiguous in scratch, on Eigen's
// vectorised arrays (its exp is a polynomial in SIMD registers; strata_rt's loop calls the
// double-precision libm exp per element, 20-30 ns each). Both return false when the operand
// boxes are not laid out as they need; the caller then runs strata_rt's loop.

#include "compiler/emit/cpp/strata_rt.h"

namespace strata::runtime {
namespace rt = strata_rt;
}

namespace strata::runtime {

// Softmax over the last axis: each row of y's box, read whole from x's box.
bool fastSoftmax(const rt::View<float>& y, const rt::View<float>& x, int axis);

// Layer normalization over dims [axis, rank), each group one contiguous run of x's and y's boxes;
// scale and bias (optional) hold exactly one group's elements.
bool fastLayerNorm(const rt::View<float>& y, const rt::View<float>& x, const rt::View<float>& scale,
                   const rt::View<float>* bias, int axis, float epsilon);

} // namespace strata::runtime
