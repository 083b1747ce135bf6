#pragma once
// Einsum on OpenBLAS. A two-operand float contraction whose labels each fall in one of four
// roles is a batch of matrix products, whatever order its labels are written in:
//   batch: in both operands and the output     rows (M): first operand and output only
//   cols (N): second operand and output only   summed (K): both operands, not the output
// ("bgid,bgjd->bgij", MaxViT's "BGHIJ,BGHJD->BGHID", "bsh,hd->bsd", "ij,jk->ik"). Each role's
// labels merge into one matrix dim when their strides nest in an operand's box; an operand
// whose dims do not is packed into a contiguous matrix first, as is an output that cannot be
// written in place. Anything else (one operand, three, a label summed inside one operand, a
// diagonal, a broadcast size-1 dim, another dtype) is left to the reference kernel.

#include "runtime/Prepared.h"

namespace strata::runtime {

// Computes the output box of a Kernel::Reference compute of an Einsum with sgemm; false when
// the op is not an Einsum, or not one of the contractions above, or its operand boxes lack
// elements the output box needs (the caller then runs the reference).
bool fastEinsum(const PreparedCompute& compute);

} // namespace strata::runtime
