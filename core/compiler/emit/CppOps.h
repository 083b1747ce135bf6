#pragma once
// Internal to the C++ emitter: one compute instruction as a call into strata_rt (the runtime in
// emit/cpp/strata_rt.h). Attributes and constant operands (axes, pads, clip bounds, slice
// starts) are resolved here, at compile time, so the generated call reads like the op.

#include "base/Expected.h"
#include "compiler/Program.h"

#include <string>
#include <vector>

namespace strata::compiler::cpp {

// The C++ element type of a dtype ("float", "std::int64_t", ...); empty when there is none.
std::string elementType(ir::DType dtype);

// One compute as statements: the operand views it declares and the kernel call, each a line
// without indentation. `scratch` is the expression of the core's scratch base pointer. An op
// the runtime has no kernel for, or one used in a way it does not cover, is an error naming
// the op and why.
Expected<std::vector<std::string>> computeStatements(const ir::Graph& graph, const ir::Op& op, const Compute& compute,
                                                     const std::string& scratch);

// Op types the runtime has a kernel for (attributes may still rule a use out).
const std::vector<std::string>& supportedOpTypes();

} // namespace strata::compiler::cpp
