#pragma once
// Standalone C++ of a program (docs/CODEGEN.md): one self-contained .cpp that builds with
// `g++ -O2 -std=c++20` and computes the model's outputs from an input file, instruction by
// instruction — each transfer a strided copy between the main-memory array and a core's
// scratch array, each compute a kernel of the inline runtime on scratch operands — plus the
// weights file it reads. Paleozoic's "generated code a user can read, debug and tune": every
// statement sits under its assembly line.

#include "base/Expected.h"
#include "compiler/Program.h"

#include <cstddef>
#include <string>
#include <vector>

namespace strata::compiler {

struct CppProgram {
    std::string source;                 // the .cpp
    std::vector<std::byte> weights;     // the weights file: weight buffers in program.dram order
    std::uint64_t inputBytes = 0;       // size of the input file it expects
    std::uint64_t outputBytes = 0;      // size of the output file it writes
};

// Fails with one diagnostic per op the runtime cannot compute (naming it and why), or when a
// weight has no data or a graph output has no home in main memory.
Expected<CppProgram> emitCpp(const Program& program, const ir::Graph& graph);

} // namespace strata::compiler
