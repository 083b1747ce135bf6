#pragma once
// The time of one compute instruction: the target's fixed overhead plus its work at the
// throughput of its op class (docs/TARGETS.md): multiply-accumulates (FLOPs / 2, docs/OP_COSTS.md)
// for conv and matmul, output elements for every other class.

#include "compiler/Program.h"
#include "ir/Graph.h"
#include "target/Target.h"

namespace strata::emulator {

double computeWork(const compiler::Compute& compute, ir::OpClass opClass);
double computeCycles(const compiler::Compute& compute, ir::OpClass opClass, const target::Target& target);
// The same from the work already known (computeWork's value).
double cyclesForWork(double work, ir::OpClass opClass, const target::Target& target);

// Bytes of working memory the instruction reads and writes (its operand regions).
std::uint64_t operandBytes(const compiler::Compute& compute, const ir::Graph& graph);

} // namespace strata::emulator
