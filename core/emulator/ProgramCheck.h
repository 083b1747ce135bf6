#pragma once
// What the emulator needs to know about a program before running it, checked once: every
// instruction's path, the transfer each wait waits on, op classes, and that the streams,
// barriers and ids are consistent. A program the compiler wrote passes; a hand-made or edited
// one gets a diagnostic per problem instead of undefined timing.

#include "base/Diagnostic.h"
#include "compiler/Program.h"
#include "ir/Graph.h"
#include "target/Target.h"

#include <cstdint>
#include <vector>

namespace strata::emulator {

inline constexpr std::uint32_t kNoInstruction = 0xffffffffu;

struct CheckedProgram {
    std::vector<std::uint16_t> pathOf;     // per instruction: index into target.paths (transfers)
    std::vector<std::uint32_t> waitsFor;   // per instruction: the transfer a wait waits on
    std::vector<ir::OpClass> opClassOf;    // per instruction (computes)
    std::size_t barriers = 0;              // barriers per core
};

// Diagnostics go to `diagnostics`; the result is usable only when none is an error.
CheckedProgram checkProgram(const compiler::Program& program, const target::Target& target, const ir::Graph& graph,
                            std::vector<Diagnostic>& diagnostics);

// "i000123", as docs/ISA.md writes instruction ids.
std::string instructionName(std::uint32_t id);

} // namespace strata::emulator
