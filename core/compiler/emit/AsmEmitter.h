#pragma once
// Assembly text of a program (syntax in docs/ISA.md): one line per instruction, per core, with
// comments naming the ONNX node, block and tile.

#include "compiler/Program.h"

#include <string>

namespace strata::compiler {

std::string emitAssembly(const Program& program, const ir::Graph& graph);

} // namespace strata::compiler
