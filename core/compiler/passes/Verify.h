#pragma once
#include "compiler/CompileState.h"

namespace strata::compiler {

// The program's invariants, checked stream by stream:
//  - a compute reads only working memory that a waited load or an earlier compute of the same
//    core wrote, and nothing overwrote since;
//  - nothing writes working memory that an in-flight transfer reads or writes;
//  - every access lies inside its memory instance;
//  - no tag is reused while its transfer is in flight, every transfer is waited, and no
//    transfer is in flight at a barrier;
//  - a load of a tensor that a block writes comes after a barrier that follows the store.
// Returns one error per violation (the first per core and kind, to keep reports readable).
std::vector<Diagnostic> verifyProgram(const Program& program, const ir::Graph& graph, const target::Target& target);

// The pass: verifyProgram on the state's program, into its diagnostics.
void verify(CompileState& state);

} // namespace strata::compiler
