#include "FallbackOps.h"

#include "emulator/ComputeCost.h"

#include <fmt/format.h>
#include <map>
#include <utility>

namespace strata::cli {

nlohmann::ordered_json fallbackOps(const ir::Graph& graph, const target::Target& target) {
    std::map<std::string, std::pair<int, emulator::CostFigure>> byType;
    for (const ir::Op& op : graph.ops) {
        emulator::CostFigure figure = emulator::costFigureOf(op, graph, target);
        if (!figure.fallback)
            continue;
        auto& [count, first] = byType[op.type];
        if (count++ == 0)
            first = figure;
    }
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& [type, entry] : byType)
        out.push_back({{"op_type", type},
                       {"ops", entry.first},
                       {"costed_as", entry.second.name},
                       {"missing", entry.second.fallbackFrom}});
    return out;
}

std::string fallbackList(const nlohmann::ordered_json& fallbacks) {
    std::string list;
    for (const auto& f : fallbacks)
        list += fmt::format("{}{} x{} at {} (no {} figure)", list.empty() ? "" : ", ",
                            f["op_type"].get<std::string>(), f["ops"].get<int>(),
                            f["costed_as"].get<std::string>(), f["missing"].get<std::string>());
    return list;
}

} // namespace strata::cli
