#include "InspectReport.h"

#include <fmt/format.h>

#include <algorithm>

namespace strata::cli {

namespace {

nlohmann::json valueJson(const ir::Graph& graph, ir::ValueId id) {
    const ir::Value& v = graph.value(id);
    return {{"name", v.name}, {"dtype", std::string(ir::dtypeName(v.dtype))}, {"shape", v.shape}};
}

std::string humanCount(double n, const char* unit) {
    static constexpr const char* kPrefixes[] = {"", "K", "M", "G", "T", "P"};
    int p = 0;
    while (n >= 1000 && p < 5) {
        n /= 1000;
        ++p;
    }
    return p == 0 ? fmt::format("{:.0f} {}", n, unit) : fmt::format("{:.2f} {}{}", n, kPrefixes[p], unit);
}

std::string humanBytes(double n) {
    static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (n >= 1024 && u < 4) {
        n /= 1024;
        ++u;
    }
    return u == 0 ? fmt::format("{:.0f} B", n) : fmt::format("{:.1f} {}", n, kUnits[u]);
}

std::string outputShapes(const ir::Graph& graph, const ir::Op& op) {
    std::string out;
    for (ir::ValueId id : op.outputs) {
        if (!out.empty()) out += ", ";
        out += ir::shapeToString(graph.value(id).shape);
    }
    return out;
}

} // namespace

nlohmann::json inspectJson(const ir::Graph& graph) {
    nlohmann::json j;
    j["nodes"] = graph.ops.size();
    nlohmann::json types = nlohmann::json::object();
    for (const auto& [type, count] : graph.opTypeCounts()) types[type] = count;
    j["op_types"] = std::move(types);
    j["parameters"] = graph.parameterCount;
    j["flops"] = graph.totalFlops();
    j["opset"] = graph.opsetVersion;
    j["inputs"] = nlohmann::json::array();
    for (ir::ValueId id : graph.inputs) j["inputs"].push_back(valueJson(graph, id));
    j["outputs"] = nlohmann::json::array();
    for (ir::ValueId id : graph.outputs) j["outputs"].push_back(valueJson(graph, id));
    j["ops"] = nlohmann::json::array();
    for (const ir::Op& op : graph.ops) {
        nlohmann::json shapes = nlohmann::json::array();
        for (ir::ValueId id : op.outputs) shapes.push_back(graph.value(id).shape);
        j["ops"].push_back({{"name", op.name},
                            {"type", op.type},
                            {"class", std::string(ir::opClassName(op.opClass))},
                            {"flops", op.cost.flops},
                            {"bytes_read", op.cost.bytesRead},
                            {"bytes_written", op.cost.bytesWritten},
                            {"parameters", op.cost.parameters},
                            {"output_shapes", std::move(shapes)}});
    }
    return j;
}

std::string inspectText(const ir::Graph& graph) {
    std::string out;
    auto line = [&](std::string s) { out += s + '\n'; };
    line(fmt::format("Model      {}", graph.sourcePath));
    line(fmt::format("Graph      {} (opset {})", graph.name.empty() ? "(unnamed)" : graph.name,
                     graph.opsetVersion));
    line(fmt::format("Nodes      {}", graph.ops.size()));
    line(fmt::format("Parameters {} ({})", graph.parameterCount,
                     humanCount(double(graph.parameterCount), "")));
    line(fmt::format("FLOPs      {}", humanCount(graph.totalFlops(), "FLOP")));
    for (ir::ValueId id : graph.inputs) {
        const auto& v = graph.value(id);
        line(fmt::format("Input      {} {} {}", v.name, ir::dtypeName(v.dtype), ir::shapeToString(v.shape)));
    }
    for (ir::ValueId id : graph.outputs) {
        const auto& v = graph.value(id);
        line(fmt::format("Output     {} {} {}", v.name, ir::dtypeName(v.dtype), ir::shapeToString(v.shape)));
    }
    line("");
    line("Op types");
    for (const auto& [type, count] : graph.opTypeCounts()) line(fmt::format("  {:<24} {:>6}", type, count));
    line("");

    std::size_t nameWidth = 4, typeWidth = 4;
    for (const ir::Op& op : graph.ops) {
        nameWidth = std::max(nameWidth, std::min<std::size_t>(op.name.size(), 48));
        typeWidth = std::max(typeWidth, op.type.size());
    }
    line(fmt::format("{:>5}  {:<{}}  {:<{}}  {:>14}  {:>10}  {:>10}  {}", "#", "name", nameWidth,
                     "type", typeWidth, "FLOPs", "read", "written", "output shapes"));
    for (std::size_t i = 0; i < graph.ops.size(); ++i) {
        const ir::Op& op = graph.ops[i];
        std::string name = op.name.size() > 48 ? op.name.substr(0, 45) + "..." : op.name;
        line(fmt::format("{:>5}  {:<{}}  {:<{}}  {:>14}  {:>10}  {:>10}  {}", i, name, nameWidth,
                         op.type, typeWidth, humanCount(op.cost.flops, "FLOP"),
                         humanBytes(double(op.cost.bytesRead)), humanBytes(double(op.cost.bytesWritten)),
                         outputShapes(graph, op)));
    }
    return out;
}

} // namespace strata::cli
