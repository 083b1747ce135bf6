#pragma once
// Which elementwise op may run as an epilogue of the compute that makes its input (a fused
// epilogue, passes/FuseEpilogues.h): the graph-level half of the rule, shared by the tile
// layout (which keeps such an op's output apart from what the compute reads) and the pass
// (which adds the per-tile conditions: same region, nothing stored, nothing in between).

#include "ir/Graph.h"

namespace strata::compiler {

// Whether `op` can lead a chain of epilogues: Conv, Gemm or MatMul.
bool takesEpilogues(const ir::Op& op);

// The elementwise op that can run as an epilogue on `producer`'s output 0, or null: a float32
// output whose only reader is one op, reading it once, that is not a graph output; that op is an
// activation (Relu, Clip, Sigmoid, HardSigmoid, HardSwish, LeakyRelu, Elu, Tanh) or Add, Sub or
// Mul, and its output has the same shape (the step runs in place on the same box). Or SiLU,
// x * sigmoid(x) (EfficientNet's activation): the output's readers are a Sigmoid, read by that
// Mul alone, and the Mul of both; then the Mul (one "SiLU" step computes both).
const ir::Op* epilogueConsumer(const ir::Graph& graph, const ir::Op& producer);

// The Sigmoid of the SiLU whose Mul epilogueConsumer(graph, producer) returns, or null.
const ir::Op* siluSigmoid(const ir::Graph& graph, const ir::Op& producer);

} // namespace strata::compiler
