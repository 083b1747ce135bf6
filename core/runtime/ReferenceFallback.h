#pragma once
// The kernel of last resort: a compute no strata_rt kernel covers (compiler::Kernel::Reference)
// runs the reference evaluator's per-region kernel through strata_rt::referenceCompute
// (compiler/emit/cpp/strata_rt_reference.h, the code generated C++ runs for the same computes):
// each input box the tile holds copied into a full-size tensor at its place (a constant the tile
// does not hold is the whole constant, decoded once by prepare()), each output box computed into
// a full-size tensor and copied back. Roughly 10-50x a fast kernel, never an allocation once warm.

#include "compiler/emit/cpp/strata_rt_reference.h"
#include "runtime/Prepared.h"

namespace strata::runtime {

// Per worker thread: the full-size tensors the evaluator reads and writes.
using ReferenceBuffers = strata_rt::ReferenceBuffers;

// Computes every output box of a Kernel::Reference compute. Throws std::runtime_error with the
// evaluator's message when it fails (e.g. an index out of range in the data).
void runReference(const PreparedCompute& compute, ReferenceBuffers& buffers);

} // namespace strata::runtime
