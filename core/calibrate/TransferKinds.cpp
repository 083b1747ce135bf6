#include "calibrate/TransferKinds.h"

#include "emulator/CachedReads.h"
#include "emulator/ProgramCheck.h"

namespace strata::calibrate {

TransferKinds transferKindsOf(const compiler::Program& program, const ir::Graph& graph,
                              const target::Target& host) {
    const target::Target classifier = emulator::withEveryKindPriced(host);
    std::vector<Diagnostic> diagnostics;
    const emulator::CheckedProgram checked =
        emulator::checkProgram(program, classifier, graph, diagnostics);
    TransferKinds out{
        std::vector<target::ReadKind>(program.instructions.size(), target::ReadKind::Other),
        std::vector<double>(program.instructions.size(), 0)};
    std::vector<target::ReadKind>& kinds = out.kinds;
    if (diagnostics.empty())
        for (std::size_t i = 0; i < kinds.size(); ++i) {
            kinds[i] = checked.steps[i].read;
            out.reuseBytes[i] = checked.steps[i].reuseBytes;
        }
    // Every read of a weight joins the weight fit, a tile the core re-read too (which the
    // emulator times at the path's figures, CachedReads.h): fitted on first reads alone the
    // figure came out 3.6-3.9 B/cycle, against 6.3-7.0 with them, and over-predicted the zoo's
    // first weight reads by 23-33% (summed, per event; docs/ACCURACY.md): a model's first reads
    // are partly in the shared cache too, which the re-reads stand for.
    for (std::size_t i = 0; i < kinds.size(); ++i)
        if (const auto* t = std::get_if<compiler::Transfer>(&program.instructions[i].body);
            t && kinds[i] == target::ReadKind::Other && t->value.valid() &&
            t->value.index < graph.values.size() && graph.values[t->value.index].isConstant &&
            t->source.memory == host.mainMemory)
            kinds[i] = target::ReadKind::Weight;
    return out;
}

} // namespace strata::calibrate
