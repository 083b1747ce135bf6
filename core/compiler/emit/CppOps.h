#pragma once
// Internal to the C++ emitter: one compute instruction as a call into strata_rt (the runtime in
// emit/cpp/strata_rt.h), printed from its lowering (KernelCall.h), so the generated call reads
// like the op.

#include "base/Expected.h"
#include "compiler/Program.h"
#include "compiler/emit/CppReference.h"
#include "compiler/emit/KernelCall.h"

#include <string>
#include <vector>

namespace strata::compiler::cpp {

using compiler::elementType;

// One compute as statements: the operand views it declares and the kernel call, each a line
// without indentation. `scratch` is the expression of the core's scratch base pointer. A compute
// no strata_rt kernel covers runs on the reference evaluator as op `references.add()` of the
// file's reference graph; an op the reference does not cover either is an error naming the op
// and why.
Expected<std::vector<std::string>> computeStatements(const ir::Graph& graph, const ir::Op& op, const Compute& compute,
                                                     const std::string& scratch, ReferenceOps& references);

// The statements of an already lowered compute (`referenceIndex`: a Kernel::Reference call's op
// in the file's reference graph).
std::vector<std::string> callStatements(const ir::Graph& graph, const KernelCall& call, const std::string& scratch,
                                        std::size_t referenceIndex = 0);

// Op types the runtime has a kernel for (attributes may still rule a use out).
const std::vector<std::string>& supportedOpTypes();

} // namespace strata::compiler::cpp
