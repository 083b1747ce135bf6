#pragma once
// The reference evaluator: a plain, obviously correct evaluation of a Strata graph on the host,
// op by op with ONNX semantics (opsets up to 17). It is the unfused reference that generated
// code and the host runtime are checked against, and its per-op kernels compute one region of
// an output at a time, as depth-first tiles do.

#include "base/Expected.h"
#include "ir/Graph.h"
#include "reference/Tensor.h"
#include "tiling/Region.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace strata::reference {

// Expected<void> stand-in.
struct Done {};

// Evaluates `graph` on `inputs` (one per graph.inputs, in that order, each with the value's
// dtype and shape). Constants come from their values' data. Returns the graph outputs in
// order, or diagnostics naming the op (unsupported op or use of it, bad data such as an index
// out of range) or the input (wrong count, dtype or shape).
Expected<std::vector<Tensor>> evaluate(const ir::Graph& graph, const std::vector<Tensor>& inputs);

// Computes `outputRegion` of output `outputIndex` of `op` (a member of `graph`) into `output`,
// a full-size tensor with that output's dtype and shape (see zerosLike()); elements outside the
// region are left as they are. `inputs` has one entry per op input: nullptr for an omitted
// optional input, otherwise a full-size tensor (only the part bounds inference names for the
// region is read). An empty region computes nothing.
Expected<Done> computeRegion(const ir::Graph& graph, const ir::Op& op,
                             const std::vector<const Tensor*>& inputs,
                             const tiling::Region& outputRegion, Tensor& output,
                             std::size_t outputIndex = 0);

// Deterministic inputs for `graph` (one per graph.inputs): floating elements uniform in
// [-1, 1) from a splitmix64 stream seeded with `seed` (the same on every platform), integral
// and bool elements zero (valid as indices and shapes).
std::vector<Tensor> sampleInputs(const ir::Graph& graph, std::uint64_t seed);

// Whether the evaluator handles this op type with these attributes (the graph's dtypes and
// opset are not looked at; use the graph overload for an exact answer).
bool supports(const ir::Op& op);
// Exact: type, attributes, opset, and the dtypes of its inputs and outputs in `graph`.
bool supports(const ir::Graph& graph, const ir::Op& op);
// Empty when supports(graph, op), otherwise the reason, e.g. "Conv: auto_pad 'X' is not
// supported" or "op type 'LSTM' is not supported".
std::string unsupportedReason(const ir::Graph& graph, const ir::Op& op);
// Op types (default ONNX domain) with a kernel, sorted.
std::vector<std::string> supportedOpTypes();
// The family whose file (core/reference/Kernels<family>.cpp) holds the kernel of `opType`
// ("Conv", "MatMul", ...); empty when none does. A generated program carries only the
// families its ops need.
std::string_view kernelFamily(std::string_view opType);

} // namespace strata::reference
