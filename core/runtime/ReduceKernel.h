#pragma once
// ReduceSum / ReduceMean / ReduceMax / ReduceMin over the trailing dims: planes (axes {2, 3} of
// N, C, H, W: global pooling written as ReduceMean) and rows (the last axis: layer-norm-like
// statistics). Each output element's group is then one contiguous run of the input box, summed
// in double in strata_rt's order, so results are bit-identical to rt::reduce without its
// per-element index arithmetic.

#include "runtime/Prepared.h"

namespace strata::runtime {

// False (nothing written) when the reduced dims are not the trailing ones or the input box does
// not hold them whole; the caller runs rt::reduce then.
bool fastReduce(const rt::View<float>& y, const rt::View<float>& x, unsigned axes, bool keepDims,
                rt::Reduce kind);

} // namespace strata::runtime
