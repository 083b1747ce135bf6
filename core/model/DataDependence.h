#pragma once
// Which graph inputs' data a value's shape depends on: what a shape diagnostic names when a dim
// can only be known at run time.

#include <onnx/onnx_pb.h>
#include <string>
#include <vector>

namespace strata::model {

// The graph inputs (initializers excluded), in graph input order, whose element values reach
// the shape of `value` through `graph`'s nodes. A node's output shape follows the shapes of its
// inputs, except for the inputs whose values set it (Reshape's shape, Expand's, Range's bounds,
// Slice's starts, NonZero's data, ...): there the values matter, and the values of a node's
// output come from all its inputs' values, except for Shape and Size, which read a shape.
std::vector<std::string> graphInputsShaping(const onnx::GraphProto& graph,
                                            const std::string& value);

} // namespace strata::model
