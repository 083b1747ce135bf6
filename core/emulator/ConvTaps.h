#pragma once
// How much of a convolution's kernel a compute really applies: the share of its taps, over the
// output box it makes, that land inside the input rather than in the padding. The host's
// convolution kernels (oneDNN's direct ones, our depthwise one) skip the taps that fall in the
// padding, so a dilated 3x3 convolution whose outer taps all lie outside a 14 x 14 input
// (DeepLabV3's dilation 24 and 36) costs about a ninth of its MACs, not all of them.

#include "compiler/Program.h"
#include "ir/Graph.h"

namespace strata::emulator {

// In (0, 1]; 1 for anything but a Conv whose window can be read (a ConvTranspose, a bad shape).
double inBoundsTapShare(const compiler::Compute& compute, const ir::Op& op, const ir::Graph& graph);

} // namespace strata::emulator
