#pragma once
// The kernel of last resort: a compute no strata_rt kernel covers (compiler::Kernel::Reference)
// runs the reference evaluator's per-region kernel (reference::computeRegion), so coverage is
// never why a model cannot run on the host. The evaluator wants whole tensors: each input box
// the tile holds is copied into a full-size tensor at its place (a constant the tile does not
// hold is the whole constant, decoded once by prepare()), the output's box is computed into a
// full-size tensor and copied back into the tile. The full-size tensors are per worker and
// reused, so a tile costs two box copies plus the evaluator's element-by-element loop (index
// arithmetic per element: roughly 10-50x a fast kernel), never an allocation once warm.

#include "reference/Tensor.h"
#include "runtime/Prepared.h"

#include <vector>

namespace strata::runtime {

// Per worker thread: the full-size tensors the evaluator reads and writes.
struct ReferenceBuffers {
    std::vector<reference::Tensor> inputs;
    reference::Tensor output;
};

// Computes every output box of a Kernel::Reference compute. Throws std::runtime_error with the
// evaluator's message when it fails (e.g. an index out of range in the data).
void runReference(const PreparedCompute& compute, ReferenceBuffers& buffers);

} // namespace strata::runtime
