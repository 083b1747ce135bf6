#include "tiling/RegionRules.h"

#include <string>
#include <variant>

namespace strata::tiling::rules {


std::optional<std::vector<std::int64_t>> RuleContext::constantInput(std::size_t i) const {
    if (!hasInput(i)) return std::nullopt;
    return constantInts(graph, op.inputs[i]);
}

InputRegions fullInputs(const RuleContext& ctx) {
    InputRegions regions(ctx.inputCount());
    for (std::size_t i = 0; i < ctx.inputCount(); ++i)
        if (ctx.hasInput(i)) regions[i] = fullRegion(ctx.inputShape(i));
    return regions;
}

Region broadcastRegion(const Region& out, const ir::Shape& inShape) {
    if (inShape.size() > out.size()) return fullRegion(inShape); // not a broadcast; stay safe
    const std::size_t offset = out.size() - inShape.size();
    Region in(inShape.size());
    for (std::size_t d = 0; d < inShape.size(); ++d)
        in[d] = inShape[d] == 1 ? Interval{0, 1} : out[d + offset];
    return in;
}

std::optional<std::size_t> normalizeAxis(std::int64_t axis, std::size_t rank) {
    const auto r = static_cast<std::int64_t>(rank);
    if (axis < 0) axis += r;
    if (axis < 0 || axis >= r) return std::nullopt;
    return static_cast<std::size_t>(axis);
}

std::int64_t floorDiv(std::int64_t a, std::int64_t b) {
    const std::int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) {
    return -floorDiv(-a, b);
}

std::string_view attrString(const ir::Op& op, std::string_view name, std::string_view fallback) {
    const ir::Attribute* a = op.attribute(name);
    if (!a) return fallback;
    if (const auto* s = std::get_if<std::string>(&a->value)) return *s;
    return fallback;
}

} // namespace strata::tiling::rules
