#pragma once
// Max and average pooling of one output box (NCHW), the runtime's fast path. Per output row, each
// tap in the tensor is one branch-free loop over the output columns it covers (a vector loop at
// stride 1), where strata_rt's loop tests every tap of every output for the tensor's edges. Taps
// are visited in strata_rt's order, so sums are bit-identical.

#include "compiler/emit/cpp/strata_rt.h"

namespace strata::runtime {

// y's box pooled from x's box with `window` (strata_rt's), pads at the end `padEnd` (rows,
// columns); average pooling divides by the taps in the tensor or, with countPad, in the padded
// tensor. False, with y untouched, when x's box lacks a batch, channel, row or column y's box
// reads, or the window has a kernel, stride or dilation below 1: the caller then runs strata_rt's
// loop.
bool fastPool2d(const strata_rt::View<float>& y, const strata_rt::View<float>& x, const strata_rt::Window2d& window,
                bool isMax, bool countPad, const strata_rt::i64 padEnd[2]);

} // namespace strata::runtime
