#include "analysis/EventGroups.h"

#include "emulator/CachedReads.h"
#include "emulator/ComputeCost.h"
#include "emulator/ProgramCheck.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <variant>

namespace strata::analysis {

trace::EventLabels eventLabels(const compiler::Program& program, const target::Target& target,
                               const ir::Graph& graph) {
    const target::Target classifier = emulator::withEveryKindPriced(target);
    std::vector<Diagnostic> diagnostics;
    const emulator::CheckedProgram checked =
        emulator::checkProgram(program, classifier, graph, diagnostics);
    static constexpr std::string_view kReadNames[] = {"other", "weight", "cached", "cached",
                                                      "shared"};
    static_assert(std::size(kReadNames) == target::kReadKinds);
    trace::EventLabels labels(program.instructions.size());
    for (std::size_t i = 0; i < program.instructions.size(); ++i) {
        const compiler::Instruction& in = program.instructions[i];
        if (const auto* t = std::get_if<compiler::Transfer>(&in.body)) {
            const auto read = diagnostics.empty() ? checked.steps[i].read : target::ReadKind::Other;
            labels[i] = t->path + "/" + std::string(kReadNames[static_cast<std::size_t>(read)]);
        } else if (std::holds_alternative<compiler::Compute>(in.body) && in.from.op.valid() &&
                   in.from.op.index < graph.ops.size()) {
            const emulator::CostFigure figure =
                emulator::costFigureOf(graph.op(in.from.op), graph, target);
            labels[i] =
                figure.fallback ? figure.name + " (for " + figure.fallbackFrom + ")" : figure.name;
        }
    }
    return labels;
}

std::vector<ErrorGroup> groupedErrors(const std::vector<MatchedEvent>& events,
                                      const trace::EventLabels& labels, trace::EventKind kind) {
    std::map<std::string, std::vector<double>> byLabel;
    for (const MatchedEvent& e : events) {
        if (e.kind != kind || !e.hasError())
            continue;
        const std::string& label = e.id < labels.size() ? labels[e.id] : std::string();
        byLabel[label.empty() ? "other" : label].push_back(e.error);
    }
    std::vector<ErrorGroup> out;
    for (auto& [label, errors] : byLabel)
        out.push_back({label, std::move(errors)});
    std::stable_sort(out.begin(), out.end(), [](const ErrorGroup& a, const ErrorGroup& b) {
        return a.errors.size() > b.errors.size();
    });
    return out;
}

} // namespace strata::analysis
