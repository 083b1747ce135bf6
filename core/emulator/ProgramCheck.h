#pragma once
// What the emulator needs to know about a program before running it, checked once: every
// instruction's path, the transfer each wait waits on, compute times, and that the streams,
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

// One instruction as the emulator reads it: compact (40 bytes), so neither the event loop nor
// the trace's construction walks the full instructions (hundreds of bytes each) out of cache.
struct Step {
    double amount = 0;                     // compute: cycles (ComputeCost.h); transfer: cycles before its bytes move (latency + rows' overhead)
    std::uint64_t bytes = 0;               // transfer: bytes; compute: working-memory operand bytes
    std::uint32_t link = kNoInstruction;   // wait: the transfer it waits on; barrier: its number
    std::int32_t block = -1;
    std::uint32_t op = kNoInstruction;     // op index in the graph, kNoInstruction when none
    std::int32_t tile = -1;
    std::uint16_t core = 0;
    std::uint16_t path = 0xffff;           // transfer: index into target.paths
    compiler::InstrKind kind = compiler::InstrKind::Compute;
    target::ReadKind read = target::ReadKind::Other; // transfer: what it reads (a path may time kinds apart)
    // A cached read or store (CachedReads.h): bytes its core moved since it last moved these
    // lines (their reuse distance).
    double reuseBytes = 0;
};

// A further core receiving a broadcast transfer (compiler::Transfer::alsoTo).
struct Delivery {
    std::uint32_t transfer = 0;
    std::uint16_t core = 0;
};

struct CheckedProgram {
    std::vector<Step> steps;               // per instruction id
    std::size_t barriers = 0;              // barriers per core
    std::vector<Delivery> deliveries;      // in transfer id order
    std::vector<std::uint8_t> pathsUsed;   // per target path: 1 when a transfer uses it
};

// Diagnostics go to `diagnostics`; the result is usable only when none is an error.
CheckedProgram checkProgram(const compiler::Program& program, const target::Target& target, const ir::Graph& graph,
                            std::vector<Diagnostic>& diagnostics);

// "i000123", as docs/ISA.md writes instruction ids.
std::string instructionName(std::uint32_t id);

} // namespace strata::emulator
