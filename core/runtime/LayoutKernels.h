#pragma once
// Channel-blocked working-memory boxes (docs/ISA.md, Layouts; compiler/passes/ChooseLayouts.h)
// in the host runtime: a Reorder instruction rewrites its box in place on oneDNN's reorder
// (strata_rt's reorder), and a convolution over blocked boxes runs on oneDNN's direct kernel as
// they are (DnnlConv.h) or, where that has no kernel for the shape, on the row-major kernels with
// the boxes rewritten row-major for the call.

#include "runtime/Prepared.h"

#include <functional>

namespace strata::runtime {

void runReorder(const PreparedCompute& compute);

// A Conv2d whose x box (inputBlock) or y box (outputBlock) the program lays out channel-blocked.
bool readsBlocked(const compiler::KernelCall& call);

// Runs `work` (row-major kernels, the epilogue included) with the convolution's blocked boxes
// rewritten row-major: x, y and the epilogue's further boxes; after it, they are laid out again
// as the program has them.
void rowMajorDuring(const PreparedCompute& compute, const std::function<void()>& work);

} // namespace strata::runtime
