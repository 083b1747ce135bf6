#pragma once
// Ops that move boxes of elements by contiguous runs, and how many runs a compute of one copies.
// The host runtime moves a Concat's, Slice's, Split's and a last-dim-keeping Transpose's box as
// one strided copy whose dims are merged wherever both boxes lay them out contiguously, and a
// Reshape whose boxes are gapless runs of the row-major order as one memcpy
// (strata_rt_movement.h's concatBoxes, sliceBoxes, transposeBoxes, reshapeRows): each run is one
// memcpy or a row of vector moves. So their time is bytes at the `copy` figure plus a cost per
// run (overhead_cycles.copy_run): ShuffleNetV2's channel halves are one run of 180 KB, a Swin
// window's rows of 32 floats thousands of runs.

#include "compiler/Program.h"
#include "ir/Graph.h"

namespace strata::emulator {

// Concat; Reshape, Flatten, Squeeze, Unsqueeze, Identity; Split; Slice with positive steps and a
// step of 1 along the last dim; Transpose keeping the last dim last or writing rows shorter than
// 16 (one run per element: MaxViT's grid Transposes gather rows of 2). The others (a Transpose
// gathering long rows across the input, a strided Slice, Gather) move element by element at
// `data_movement`.
bool isCopy(const ir::Op& op, const ir::Graph& graph);

// The contiguous runs `compute` (of `op`) copies, merged as the host runtime merges them; 0 for
// an op that is not a copy or a compute the runtime's kernels do not lower.
double copyRuns(const compiler::Compute& compute, const ir::Op& op, const ir::Graph& graph);

} // namespace strata::emulator
