#include "layout/NodeLabel.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace strata::layout {

namespace {

// Code points in UTF-8 text: continuation bytes (10xxxxxx) do not start a character.
std::size_t codePoints(std::string_view text) {
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

std::string outputShapes(const ir::Graph& graph, const ir::Op& op) {
    constexpr std::size_t kShown = 2;
    std::string out;
    for (std::size_t i = 0; i < op.outputs.size() && i < kShown; ++i) {
        if (!op.outputs[i].valid() || op.outputs[i].index >= graph.values.size())
            continue;
        if (!out.empty())
            out += ", ";
        out += ir::shapeToString(graph.value(op.outputs[i]).shape);
    }
    if (op.outputs.size() > kShown)
        out += " +" + std::to_string(op.outputs.size() - kShown);
    return out;
}

std::string valueDetail(const ir::Value& value) {
    return ir::shapeToString(value.shape) + " " + std::string(ir::dtypeName(value.dtype));
}

// "MatMul ×24 · Add ×12 · Softmax ×6": the three most common op types of a block.
std::string typeSummary(const std::map<std::string, int>& counts) {
    std::vector<std::pair<std::string, int>> sorted(counts.begin(), counts.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    constexpr std::size_t kShown = 3;
    std::string out;
    for (std::size_t i = 0; i < sorted.size() && i < kShown; ++i) {
        if (!out.empty())
            out += " \u00b7 ";
        out += sorted[i].first;
        if (sorted[i].second > 1)
            out += " \u00d7" + std::to_string(sorted[i].second);
    }
    return out;
}

NodeLabel blockLabel(const ir::Graph& graph, const LayoutInput& input, int block) {
    std::map<std::string, int> types;
    std::size_t first = graph.ops.size();
    std::size_t last = 0;
    int count = 0;
    for (std::size_t i = 0; i < input.blockOfOp.size() && i < graph.ops.size(); ++i) {
        if (input.blockOfOp[i] != block)
            continue;
        ++types[graph.ops[i].type];
        first = std::min(first, i);
        last = i;
        ++count;
    }
    NodeLabel label;
    if (input.blocksAreChunks && count > 0)
        label.title = "Ops " + std::to_string(first) + "\u2013" + std::to_string(last);
    else
        label.title = "Block " + std::to_string(block);
    label.name = count == 1 ? "1 op" : std::to_string(count) + " ops";
    label.detail = typeSummary(types);
    return label;
}

} // namespace

double TextMetrics::textWidth(std::string_view text, TextRole role) const {
    if (measure)
        return measure(text, role);
    return static_cast<double>(codePoints(text)) *
           (role == TextRole::Title ? titleCharWidth : charWidth);
}

int NodeLabel::lineCount() const {
    return int(!title.empty()) + int(!name.empty()) + int(!detail.empty());
}

NodeLabel nodeLabel(const ir::Graph& graph, const LayoutInput& input, NodeRef ref) {
    switch (ref.kind) {
    case NodeKind::Op: {
        if (ref.id >= graph.ops.size())
            return {};
        const ir::Op& op = graph.ops[ref.id];
        return {op.domain.empty() ? op.type : op.domain + "::" + op.type, op.name,
                outputShapes(graph, op)};
    }
    case NodeKind::Block:
        return blockLabel(graph, input, static_cast<int>(ref.id));
    case NodeKind::Input:
    case NodeKind::Output: {
        if (ref.id >= graph.values.size())
            return {};
        const ir::Value& value = graph.values[ref.id];
        return {ref.kind == NodeKind::Input ? "Input" : "Output", value.name, valueDetail(value)};
    }
    }
    return {};
}

Size nodeSize(const NodeLabel& label, const TextMetrics& metrics) {
    double text = 0;
    if (!label.title.empty())
        text = std::max(text, metrics.textWidth(label.title, TextRole::Title));
    if (!label.name.empty())
        text = std::max(text, metrics.textWidth(label.name, TextRole::Body));
    if (!label.detail.empty())
        text = std::max(text, metrics.textWidth(label.detail, TextRole::Body));
    const double width = std::clamp(text + 2 * metrics.paddingX, metrics.minWidth,
                                    std::max(metrics.minWidth, metrics.maxWidth));
    const int lines = std::max(label.lineCount(), 1);
    // Whole points: dot rounds node sizes to points, and rounding down would cut the text.
    return {std::ceil(width), std::ceil(lines * metrics.lineHeight + 2 * metrics.paddingY)};
}

} // namespace strata::layout
