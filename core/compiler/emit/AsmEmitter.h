#pragma once
// Assembly text of a program (syntax in docs/ISA.md): one line per instruction, per core, with
// comments naming the ONNX node, block and tile.

#include "compiler/Program.h"

#include <string>

namespace strata::compiler {

std::string emitAssembly(const Program& program, const ir::Graph& graph);

// One instruction's line as emitAssembly() writes it, without the leading id ("mvp t0 ... ; load
// ..."), for views that show the id in a column of its own.
std::string instructionText(const Instruction& instruction, const Program& program, const ir::Graph& graph);

} // namespace strata::compiler
