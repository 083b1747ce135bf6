#pragma once
// The timeline a program's run fills in: the header (target, clock, cores, model, paths, ops) and
// one event per instruction with its static fields (core, kind, block, op, tile, bytes, path,
// link), read from the program's one check. The emulator and the host runtime both start from
// it, so a prediction and a measurement describe every instruction alike (compare matches them
// by id) and differ only in their times.

#include "compiler/Program.h"
#include "emulator/ProgramCheck.h"
#include "ir/Graph.h"
#include "target/Target.h"
#include "trace/Trace.h"

namespace strata::emulator {

// `checked` is checkProgram's result (without errors) for `program`, `target` and `graph`;
// events[i] is instruction i, its times 0. An emulated skeleton carries the target's clock, a
// measured one none (wall-clock times).
trace::Trace traceSkeleton(const compiler::Program& program, const target::Target& target,
                           const ir::Graph& graph, const CheckedProgram& checked,
                           trace::Source source);

} // namespace strata::emulator
