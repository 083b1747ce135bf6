#pragma once
// Which kind of read each transfer of a compiled calibration program is, so its sample joins
// the fit of that kind (target::ReadKind): as the emulator tells them apart, with every read of
// a weight counted as a weight read.

#include "compiler/Program.h"
#include "ir/Graph.h"
#include "target/Target.h"

#include <vector>

namespace strata::calibrate {

// Per instruction of a program: its kind of read, and for a cached read or store its reuse
// distance (emulator::Step::reuseBytes; 0 for the rest).
struct TransferKinds {
    std::vector<target::ReadKind> kinds;
    std::vector<double> reuseBytes;
};

// Per instruction of `program` (compiled for `host` from `graph`): the kind emulator::
// checkProgram gives it on `host` with every kind of read priced (emulator::withEveryKindPriced),
// Other for all when the check fails; then every load of a constant out of main memory that is
// still Other becomes Weight (a weight tile the core re-read: see the .cpp).
TransferKinds transferKindsOf(const compiler::Program& program, const ir::Graph& graph,
                              const target::Target& host);

} // namespace strata::calibrate
