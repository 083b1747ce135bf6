#pragma once
// A 1x1 convolution of one group at a single position: a squeeze-excite block's maps on its
// pooled channels (EfficientNet, MobileNetV3, RegNetY), y = W x + b, a matrix-vector product.
// sgemm's call costs more than such a product (EfficientNet-B0's 40 x 960 and 960 x 40 maps took
// 2-8 us on OpenBLAS's sgemm), so it runs as Eigen's matrix-vector product.

#include "runtime/Prepared.h"

#include <cstddef>

namespace strata::runtime {

// Runs the compute when it is such a convolution, with its epilogue's leading Relu or Clip folded
// into the bias loop (stepsDone says how many steps ran); false, having written nothing, when
// it is not.
bool matrixVectorConv(const PreparedCompute& compute, std::size_t& stepsDone);

} // namespace strata::runtime
