#include "tiling/Window.h"

#include <algorithm>
#include <string>
#include <variant>

namespace strata::tiling {
namespace {

using Ints = std::vector<std::int64_t>;

Ints intsOr(const ir::Op& op, std::string_view name, std::size_t n, std::int64_t fallback) {
    Ints v = op.attrInts(name);
    return v.empty() ? Ints(n, fallback) : v;
}

std::string_view autoPadOf(const ir::Op& op) {
    const ir::Attribute* a = op.attribute("auto_pad");
    const auto* s = a ? std::get_if<std::string>(&a->value) : nullptr;
    return s ? std::string_view(*s) : std::string_view("NOTSET");
}

} // namespace

std::optional<SlidingWindow> slidingWindow(const ir::Op& op, Ints kernel, const ir::Shape& in,
                                           const ir::Shape& out) {
    if (in.size() < 3 || out.size() != in.size()) return std::nullopt;
    const std::size_t n = in.size() - 2;
    SlidingWindow w{std::move(kernel), intsOr(op, "strides", n, 1), intsOr(op, "dilations", n, 1), {}, {}};
    const Ints pads = intsOr(op, "pads", 2 * n, 0);
    if (w.kernel.size() != n || w.strides.size() != n || w.dilations.size() != n || pads.size() != 2 * n)
        return std::nullopt;
    const std::string_view autoPad = autoPadOf(op);
    for (std::size_t i = 0; i < n; ++i) {
        if (w.strides[i] <= 0 || w.dilations[i] <= 0 || w.kernel[i] <= 0) return std::nullopt;
        const std::int64_t span = (w.kernel[i] - 1) * w.dilations[i] + 1;
        const std::int64_t total =
            std::max<std::int64_t>(0, (out[i + 2] - 1) * w.strides[i] + span - in[i + 2]);
        std::int64_t begin = pads[i], end = pads[i + n];
        if (autoPad == "SAME_UPPER") {
            begin = total / 2; // the odd pixel goes at the end
            end = total - begin;
        } else if (autoPad == "SAME_LOWER") {
            begin = total - total / 2;
            end = total / 2;
        } else if (autoPad == "VALID") {
            begin = end = 0;
        }
        w.padBegin.push_back(begin);
        w.padEnd.push_back(end);
    }
    return w;
}

Ints convKernel(const ir::Op& op, const ir::Shape& weight) {
    Ints kernel = op.attrInts("kernel_shape");
    if (kernel.empty() && weight.size() > 2) kernel.assign(weight.begin() + 2, weight.end());
    return kernel;
}

} // namespace strata::tiling
