#pragma once
// Strided pointwise convolutions (1x1 windows with a stride above 1, no padding, one group:
// ResNet's downsampling projections) on oneDNN's 1x1 kernel. The positions the window reads are
// gathered channels-last ([P][K]), the only input elements it touches, and the kernel runs as a
// stride-1 pointwise convolution over them, its bias and leading epilogue steps as post-ops; a
// row-major output is written from a channels-last scratch box. The sgemm path gathers the same
// positions (im2col), so against it only that output copy is extra.

#include "runtime/Prepared.h"

#include <cstddef>

namespace strata::runtime {

struct Workspace;

// False, having written nothing, where the window, the boxes or the shape do not suit it (the
// caller runs the im2col + sgemm kernel).
bool stridedPointwiseConv(const PreparedCompute& compute, Workspace& workspace,
                          std::size_t& stepsDone);

} // namespace strata::runtime
