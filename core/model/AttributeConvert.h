#pragma once
// onnx::AttributeProto -> Strata's plain attribute values, shared by the IR builder and constant
// folding (which evaluates a node through the reference evaluator's IR-level kernels).

#include "ir/Attribute.h"

#include <onnx/onnx_pb.h>

namespace strata::model {

// Scalars and lists convert as they are; a tensor attribute becomes "<tensor 2x3>" (the IR does
// not keep tensor data), anything else "<unsupported attribute>".
ir::AttributeValue convertAttribute(const onnx::AttributeProto& attribute);

} // namespace strata::model
