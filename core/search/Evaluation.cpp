#include "search/Evaluation.h"

#include "compiler/Pipeline.h"
#include "emulator/Emulator.h"

#include <algorithm>
#include <variant>

namespace strata::search {

std::optional<Evaluation> Evaluator::evaluate(const schedule::Schedule& schedule) {
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
            if (t->source.memory == program.mainMemory ||
                t->destination.memory == program.mainMemory)
                e.dramBytes += t->bytes;
    for (const compiler::BlockCode& b : program.blocks)
        e.sramPeakBytes = std::max(e.sramPeakBytes, b.sramBytes);
    return e;
}

} // namespace strata::search
