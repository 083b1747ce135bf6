#pragma once
// Softmax, layer and batch normalization on runs that lie contiguous in scratch. Softmax and
// layer normalization use Eigen's vectorised arrays (its exp is a polynomial in SIMD registers;
// strata_rt's loop calls the double-precision libm exp per element, 20-30 ns each); batch
// normalization is one multiply-add loop per channel plane, bit-identical to strata_rt's. Each
// returns false when the operand boxes are not laid out as it needs; the caller then runs
// strata_rt's loop.

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

// Batch normalization (inference) of y's box, NCHW or any rank >= 2 with channels on dim 1:
// y = (x - mean) * scale / sqrt(var + epsilon) + bias per channel.
bool fastBatchNorm(const rt::View<float>& y, const rt::View<float>& x, const rt::View<float>& scale,
                   const rt::View<float>& bias, const rt::View<float>& mean, const rt::View<float>& var, float epsilon);

} // namespace strata::runtime
