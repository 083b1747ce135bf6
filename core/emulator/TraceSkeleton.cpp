#include "emulator/TraceSkeleton.h"

namespace strata::emulator {
namespace {

trace::EventKind eventKind(compiler::InstrKind kind) {
    switch (kind) {
    case compiler::InstrKind::Transfer:
        return trace::EventKind::Transfer;
    case compiler::InstrKind::Compute:
        return trace::EventKind::Compute;
    case compiler::InstrKind::Wait:
        return trace::EventKind::Wait;
    case compiler::InstrKind::Barrier:
        return trace::EventKind::Barrier;
    }
    return trace::EventKind::Compute;
}

} // namespace

trace::Trace traceSkeleton(const compiler::Program& program, const target::Target& target,
                           const ir::Graph& graph, const CheckedProgram& checked,
                           trace::Source source) {
    trace::Trace t;
    t.source = source;
    t.target = target.name;
    t.clockHz = source == trace::Source::Emulated ? target.clockHz : 0;
    t.cores = program.cores;
    t.modelName = program.modelName.empty() ? graph.name : program.modelName;
    t.modelHash = program.modelHash.empty() ? graph.contentHash : program.modelHash;
    t.mainMemory = program.mainMemory.empty() ? target.mainMemory : program.mainMemory;
    for (const target::TransferPath& p : target.paths)
        t.paths.push_back({p.name, p.source, p.destination});
    t.ops.reserve(graph.ops.size());
    for (const ir::Op& op : graph.ops)
        t.ops.push_back(op.name);
    // Built in place rather than resized and overwritten: one write over the events, not two.
    t.events.reserve(checked.steps.size());
    for (std::size_t i = 0; i < checked.steps.size(); ++i) {
        const Step& step = checked.steps[i];
        trace::Event& e = t.events.emplace_back();
        e.id = static_cast<std::uint32_t>(i);
        e.core = step.core;
        e.kind = eventKind(step.kind);
        e.source = source;
        e.block = step.block;
        e.op = step.op;
        e.tile = step.tile;
        e.bytes = step.bytes;
        if (step.kind == compiler::InstrKind::Transfer)
            e.path = step.path;
        if (step.kind == compiler::InstrKind::Wait || step.kind == compiler::InstrKind::Barrier)
            e.link = static_cast<std::int32_t>(step.link);
    }
    return t;
}

} // namespace strata::emulator
