#pragma once
// The transfer experiment of seed 004 (PFN's emulate_time validation), as a program: transfers
// of a few kinds (paths) issued alternately by one core, at most `inFlight` outstanding (the
// oldest is waited on before another is issued), swept over sizes. Emulated here; the host
// runtime runs the same program for real, so predicted and measured throughput line up per size.

#include "base/Expected.h"
#include "compiler/Program.h"
#include "target/Target.h"

#include <cstdint>
#include <string>
#include <vector>

namespace strata::emulator {

struct MicrobenchSpec {
    std::vector<std::string> kinds;          // path names, issued round robin: "mvp", "mvb"
    std::vector<std::uint64_t> sizes;        // per transfer, in words
    std::uint64_t wordBytes = 8;             // MN-Core's long word, as the seed's sizes count
    int inFlight = 2;
    int transfersPerKind = 32;
};

// The program for one size: transfersPerKind transfers of each kind, alternating, tags cycling
// over inFlight, each waited on before its tag is reused, all waited at the end. Errors: an
// unknown path, a size that does not fit the path's destination memory, counts below 1.
Expected<compiler::Program> microbenchProgram(const target::Target& target, const std::vector<std::string>& kinds,
                                              std::uint64_t bytes, int inFlight, int transfersPerKind);

struct MicrobenchRow {
    std::uint64_t words = 0;
    std::uint64_t bytes = 0;                 // per transfer
    std::vector<double> aloneGBps;           // per kind: the program with that kind only
    double mixedGBps = 0;                    // all kinds alternating (the seed's "total")
    double idealGBps = 0;                    // harmonic mean of aloneGBps (the seed's "sequential ideal")
};

struct MicrobenchResult {
    std::vector<std::string> kinds;
    std::vector<double> limitGBps;           // per kind: inFlight transfers sharing their resources
    std::vector<MicrobenchRow> rows;         // by size
};

// Throughputs are bytes moved over the emulated run's total time.
Expected<MicrobenchResult> runMicrobench(const target::Target& target, const MicrobenchSpec& spec);

} // namespace strata::emulator
