#pragma once
// Graphs, targets and states the compiler tests share.

#include "compiler/CompileState.h"

#include <memory>

namespace strata::test {

// X[1,4,8,8] -> Conv_0 (3x3, pad 1) -> Relu_1 -> Conv_2 (3x3, pad 1) -> Relu_3 -> Y, weights as
// initializers.
std::shared_ptr<const ir::Graph> convChainWithWeights();

// Per-op blocks of an N,C,8,W graph, each split into 8 row tiles over the target's 8 cores.
schedule::Schedule rowTilesOnEveryCore(const ir::Graph& graph, const target::Target& target);

std::shared_ptr<const ir::Graph> sampleGraph(const std::string& file);
target::Target presetTarget(const std::string& name);

// A compile state holding `schedule` and its analysis, ready for the first pass.
compiler::CompileState stateFor(const ir::Graph& graph, const target::Target& target, schedule::Schedule schedule);

} // namespace strata::test
