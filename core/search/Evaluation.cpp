#include "search/Evaluation.h"

#include "compiler/Pipeline.h"
#include "compiler/emit/KernelCall.h"
#include "compiler/passes/InsertTransfers.h"
#include "emulator/Emulator.h"
#include "schedule/Validate.h"
#include "search/SlicedFusion.h"

#include <algorithm>
#include <variant>

namespace strata::search {
namespace {

bool touchesMain(const compiler::Transfer& t, const std::string& mainMemory) {
    return t.source.memory == mainMemory || t.destination.memory == mainMemory;
}

} // namespace

Evaluator::Evaluator(const ir::Graph& graph, const target::Target& target, bool reuse)
    : m_graph(graph), m_target(target), m_cache(graph, target) {
    if (reuse)
        m_stretches = std::make_unique<StretchTimes>(graph, target);
    // compile() refuses such a graph whatever the schedule; the stretches' path checks it once.
    for (const ir::Op& op : graph.ops)
        if (!compiler::runtimeRefusal(graph, op).empty())
            m_refused = true;
}

std::optional<Evaluation> Evaluator::evaluate(const schedule::Schedule& schedule, Admit admit) {
    m_leftOut = false;
    if (m_stretches) {
        auto e = byStretches(schedule, admit);
        if (!e || e->emulatedPs >= 0)
            return e;
        admit = Admit::Any; // byStretches checked it
    }
    return compileAndEmulate(schedule, admit);
}

std::optional<Evaluation> Evaluator::compileAndEmulate(const schedule::Schedule& schedule,
                                                       Admit admit) {
    if (admit == Admit::WithoutSlicedFusion) {
        // checkSchedule checks the structure before it tiles, so any candidate is safe here.
        const schedule::ScheduleCheck check =
            schedule::checkSchedule(schedule, m_graph, m_target, &m_cache.analysis());
        if (check.valid() && (m_leftOut = fusionForcesSlices(schedule, check.analysis, m_graph,
                                                             m_target, m_cache.analysis())))
            return std::nullopt;
    }
    // compile() checks the schedule first (schedule::checkSchedule, its tiling from the cache) and
    // stops there when it does not validate, so an invalid candidate costs no more than that.
    compiler::CompileOptions options;
    options.cache = &m_cache;
    auto compiled = compiler::compile(m_graph, m_target, schedule, options);
    if (!compiled)
        return std::nullopt;
    emulator::EmulateOptions emulateOptions;
    emulateOptions.counters = false; // the search reads the total only
    auto trace = emulator::emulate(compiled->program, m_target, m_graph, emulateOptions);
    if (!trace)
        return std::nullopt;

    const compiler::Program& program = compiled->program;
    Evaluation e;
    e.emulatedPs = trace->endPs();
    for (const compiler::Instruction& instr : program.instructions)
        if (const auto* t = std::get_if<compiler::Transfer>(&instr.body))
            if (touchesMain(*t, program.mainMemory))
                e.dramBytes += t->bytes;
    for (const compiler::BlockCode& b : program.blocks)
        e.sramPeakBytes = std::max(e.sramPeakBytes, b.sramBytes);
    return e;
}

std::optional<Evaluation> Evaluator::byStretches(const schedule::Schedule& schedule, Admit admit) {
    if (m_refused)
        return std::nullopt;
    // compile()'s steps up to insert-transfers, on the same cache (Pipeline.cpp).
    struct EndCompile {
        compiler::CompileCache& cache;
        ~EndCompile() { cache.endCompile(); }
    } endCompile{m_cache};
    schedule::ScheduleCheck check =
        schedule::checkSchedule(schedule, m_graph, m_target, &m_cache.analysis());
    if (!check.valid())
        return std::nullopt;
    if (admit == Admit::WithoutSlicedFusion &&
        (m_leftOut =
             fusionForcesSlices(schedule, check.analysis, m_graph, m_target, m_cache.analysis())))
        return std::nullopt;
    compiler::CompileState state{m_graph, m_target, schedule, std::move(check.analysis),
                                 {},      {},       {}};
    state.cache = &m_cache;
    state.program.modelName = m_graph.name;
    state.program.modelHash = m_graph.contentHash;
    state.program.targetName = m_target.name;
    state.program.mainMemory = m_target.mainMemory;
    state.program.workingMemory = m_target.workingMemory;
    for (const compiler::Pass& pass : compiler::passes()) {
        if (pass.name == "insert-transfers")
            break;
        pass.run(state);
        if (state.failed())
            return std::nullopt;
    }
    const compiler::PlacedChunks placed = compiler::placeChunks(state);
    if (state.failed())
        return std::nullopt;

    const auto totals =
        m_stretches->totals(placed.chunks, placed.barrierBefore, placed.dramOffsets);
    Evaluation e;
    if (!totals) {
        e.emulatedPs = -1;
        return e;
    }
    e.emulatedPs = totals->ps;
    e.dramBytes = totals->dramBytes;
    for (const auto& chunk : placed.chunks)
        e.sramPeakBytes = std::max(e.sramPeakBytes, chunk->code.sramBytes);
    return e;
}

} // namespace strata::search
